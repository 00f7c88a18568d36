import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A W3C WebDriver client driving a real headless Chromium (Debian's `chromium` and `chromium-driver`)
/// for tests of pages: one chromedriver of its own (``ChildProcess``, `--port=0`), one session.
///
/// chromedriver runs in a process group of its own (`setsid`) and Chromium in it: ``quit()``, or the
/// release of the driver on a failure path, kills the whole group, so neither outlives the test even
/// when chromedriver dies before its browser. Chromium's profile, HOME and XDG folders are a
/// ``TemporaryFolder`` removed with it.
public final class WebDriver: Sendable {
    /// chromedriver or Chromium is not installed: tests skip with its description.
    public struct Unavailable: Error, CustomStringConvertible, Sendable { public let description: String }

    /// A WebDriver error (`{"value":{"error":…,"message":…}}`), or chromedriver unreachable (error "transport").
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let command: String, error: String, message: String
        public var description: String { "WebDriver \(command): \(error): \(message)" }
    }

    /// A web element of the current page.
    public struct Element: Sendable, Hashable {
        public let id: String
        /// The element as a script argument (`arguments[i]` is the DOM element).
        public var json: JSON { ["element-6066-11e4-a52e-4f735466cecf": .string(id)] }
    }

    /// One entry of the browser's console log (``browserLogs()``).
    public struct LogEntry: Sendable, CustomStringConvertible {
        public let level: String, message: String
        public var description: String { "\(level) \(message)" }
    }

    /// Where Debian installs them.
    public static let defaultDriverPath = "/usr/bin/chromedriver"
    public static let browserPaths = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]

    /// Why ``start(arguments:windowSize:environment:driverPath:)`` cannot work here, or nil.
    public static func unavailable(driverPath: String = defaultDriverPath) -> Unavailable? {
        let hint = "(Debian's chromium and chromium-driver; scripts/test.sh installs them)"
        if !FileManager.default.isExecutableFile(atPath: driverPath) {
            return Unavailable(description: "chromedriver is not installed: no executable \(driverPath) \(hint)")
        }
        if browser == nil {
            return Unavailable(description: "Chromium is not installed: none of \(browserPaths.joined(separator: ", ")) \(hint)")
        }
        return nil
    }

    private static var browser: String? { browserPaths.first { FileManager.default.isExecutableFile(atPath: $0) } }

    /// chromedriver's port.
    public let port: Int
    public let sessionID: String
    /// chromedriver's process, and the process group it and Chromium run in.
    public var processIdentifier: pid_t { driver.processIdentifier }
    private let driver: ChildProcess
    private let group: pid_t?
    private let folder: TemporaryFolder
    private let ended = Mutex(false)

    private init(port: Int, sessionID: String, driver: ChildProcess, group: pid_t?, folder: TemporaryFolder) {
        (self.port, self.sessionID, self.driver, self.group, self.folder) = (port, sessionID, driver, group, folder)
    }

    /// Starts chromedriver, waits until its `/status` says ready and opens a session on a headless
    /// Chromium (`--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage`, autoplay without
    /// a gesture, insecure certificates accepted, console logs kept).
    /// - Parameters:
    ///   - arguments: more Chromium switches (e.g. `--ignore-certificate-errors-spki-list=…`).
    ///   - windowSize: the window's width and height.
    ///   - environment: added to chromedriver's (and so Chromium's) environment, e.g. `PULSE_SERVER`.
    /// - Throws: ``Unavailable`` when chromedriver or Chromium is missing.
    public static func start(arguments: [String] = [], windowSize: (Int, Int)? = nil, environment: [String: String] = [:],
                             driverPath: String = defaultDriverPath) async throws -> WebDriver {
        if let missing = unavailable(driverPath: driverPath) { throw missing }
        let folder = try TemporaryFolder("chromium")
        var variables = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path("config"), "XDG_CACHE_HOME": folder.path("cache")]
        variables.merge(environment) { $1 }
        let setsid = FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid")
        let driver: ChildProcess
        do {
            driver = try ChildProcess(setsid ? "/usr/bin/setsid" : driverPath, (setsid ? [driverPath] : []) + ["--port=0"],
                                      adding: variables, standardError: .standardOutput)
        } catch {
            folder.remove()
            throw error
        }
        // posix_spawn's child leads no group, so setsid execs chromedriver itself: its pid is the group's.
        let group = setsid ? driver.processIdentifier : nil
        do {
            let line = try await driver.line(within: defaultBound) { $0.contains("was started successfully on port") }
            guard let port = Int(line.split(separator: " ").last?.trimmingCharacters(in: .punctuationCharacters) ?? "") else {
                throw Failure(command: "start", error: "no port", message: line)
            }
            var status: Result<JSON, any Error> = .success(.null)
            guard await eventually({
                do { status = .success(try await call(port, "GET", "/status", nil, driver)) } catch { status = .failure(error) }
                return (try? status.get())?["ready"]?.bool == true
            }) else { throw TimedOut(what: "chromedriver's /status to say ready (it said \(status))", seconds: defaultBound) }
            var switches = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--autoplay-policy=no-user-gesture-required", "--user-data-dir=\(folder.path("profile"))"]
            if let (width, height) = windowSize { switches.append("--window-size=\(width),\(height)") }
            let capabilities: JSON = ["alwaysMatch": [
                "browserName": "chrome", "acceptInsecureCerts": true, "goog:loggingPrefs": ["browser": "ALL"],
                "timeouts": ["pageLoad": 60_000, "script": 30_000],
                // Chromium starts on about:blank, not on its new tab page: Debian's is DuckDuckGo's, online, and
                // chromedriver 156 (which names no first page) waits for its load before the first navigation.
                "goog:chromeOptions": ["binary": .string(browser!), "args": .array((switches + arguments).map { .string($0) }),
                                       "prefs": ["session.restore_on_startup": 4, "session.startup_urls": ["about:blank"]]],
            ]]
            let session = try await call(port, "POST", "/session", ["capabilities": capabilities], driver)
            guard let id = session["sessionId"]?.string else {
                throw Failure(command: "new session", error: "no session id", message: session.description)
            }
            return WebDriver(port: port, sessionID: id, driver: driver, group: group, folder: folder)
        } catch {
            end(group, driver, folder)
            throw error
        }
    }

    deinit {
        if !ended.withLock({ $0 }) { Self.end(group, driver, folder) }
    }

    /// Kills what is left of chromedriver and Chromium (its whole process group), removes the profile.
    private static func end(_ group: pid_t?, _ driver: ChildProcess, _ folder: TemporaryFolder) {
        if let group { _ = Glibc.kill(-group, SIGKILL) }
        driver.kill()
        folder.remove()
    }

    /// Deletes the session (Chromium quits), ends chromedriver and removes the profile. Idempotent.
    public func quit() async {
        guard !ended.withLock({ ended in defer { ended = true }; return ended }) else { return }
        _ = try? await command("DELETE", "")
        await driver.stop(grace: 5)
        Self.end(group, driver, folder)
    }

    // MARK: Commands

    /// Goes to `url` and waits for its load.
    public func navigate(to url: String) async throws { try await command("POST", "/url", ["url": .string(url)]) }
    public var currentURL: String { get async throws { try await command("GET", "/url").string ?? "" } }
    public var title: String { get async throws { try await command("GET", "/title").string ?? "" } }

    /// The first element matching the CSS selector; throws ``Failure`` "no such element" when none does.
    public func element(css selector: String) async throws -> Element {
        let value = try await command("POST", "/element", ["using": "css selector", "value": .string(selector)])
        guard let id = value.object?.values.first?.string else {
            throw Failure(command: "element \(selector)", error: "no element reference", message: value.description)
        }
        return Element(id: id)
    }

    public func click(_ element: Element) async throws { try await command("POST", "/element/\(element.id)/click", [:]) }
    /// Types `text` into the element (W3C Element Send Keys).
    public func sendKeys(_ text: String, to element: Element) async throws {
        try await command("POST", "/element/\(element.id)/value", ["text": .string(text)])
    }
    /// The element's rendered text.
    public func text(of element: Element) async throws -> String { try await command("GET", "/element/\(element.id)/text").string ?? "" }
    /// The attribute (or the property of that name), nil when it has none.
    public func attribute(_ name: String, of element: Element) async throws -> String? {
        try await command("GET", "/element/\(element.id)/attribute/\(name)").string
    }
    public func isDisplayed(_ element: Element) async throws -> Bool { try await command("GET", "/element/\(element.id)/displayed").bool ?? false }

    /// Runs a function body in the page with `arguments` and returns what it returns (W3C Execute Script).
    @discardableResult
    public func execute(_ script: String, _ arguments: [JSON] = []) async throws -> JSON {
        try await command("POST", "/execute/sync", ["script": .string(script), "args": .array(arguments)])
    }

    /// Runs a function body whose last argument is the callback it calls with its result (W3C Execute Async Script).
    @discardableResult
    public func executeAsync(_ script: String, _ arguments: [JSON] = []) async throws -> JSON {
        try await command("POST", "/execute/async", ["script": .string(script), "args": .array(arguments)])
    }

    /// Runs `script` (a function body, e.g. `return window.done`) until its value is truthy; throws
    /// ``TimedOut`` naming the last value after `bound`.
    public func wait(until script: String, within bound: Duration = .seconds(defaultBound),
                     every interval: Duration = .milliseconds(50)) async throws {
        var last = JSON.null
        let seconds = Double(bound.components.seconds) + Double(bound.components.attoseconds) * 1e-18
        let held = try await eventually(within: seconds, every: interval) {
            last = try await execute(script)
            return last.isTruthy
        }
        if !held { throw TimedOut(what: "\(script.debugDescription) to hold (last value: \(last))", seconds: seconds) }
    }

    /// The viewport as a PNG.
    public func screenshot() async throws -> Data {
        let value = try await command("GET", "/screenshot")
        guard let data = value.string.flatMap({ Data(base64Encoded: $0) }) else {
            throw Failure(command: "screenshot", error: "not base64", message: String(value.description.prefix(100)))
        }
        return data
    }

    public func setWindowSize(width: Int, height: Int) async throws {
        try await command("POST", "/window/rect", ["width": .number(Double(width)), "height": .number(Double(height))])
    }

    /// Opens a new tab and makes it the current one (the page before goes to the background, hidden);
    /// returns the handle of the tab that was current.
    @discardableResult
    public func openTab() async throws -> String {
        let previous = try await command("GET", "/window").string ?? ""
        let handle = try await command("POST", "/window/new", ["type": "tab"])["handle"]?.string ?? ""
        try await command("POST", "/window", ["handle": .string(handle)])
        return previous
    }

    /// Makes the tab `handle` the current one again (and closes the one that was).
    public func closeTabAndReturn(to handle: String) async throws {
        try await command("DELETE", "/window")
        try await command("POST", "/window", ["handle": .string(handle)])
    }

    /// The browser console's entries since the last call (`goog:loggingPrefs`; chromedriver's own `/se/log`).
    public func browserLogs() async throws -> [LogEntry] {
        try await command("POST", "/se/log", ["type": "browser"]).array?.map {
            LogEntry(level: $0["level"]?.string ?? "", message: $0["message"]?.string ?? "")
        } ?? []
    }

    /// chromedriver's own output so far (for failure messages).
    public var driverOutput: String { driver.standardOutput }

    @discardableResult
    private func command(_ method: String, _ path: String, _ body: JSON? = nil) async throws -> JSON {
        try await Self.call(port, method, "/session/\(sessionID)\(path)", body, driver)
    }

    /// One WebDriver request; its `value`, or ``Failure``. Raw HTTP/1.1 over loopback TCP, not
    /// URLSession: swift-corelibs-foundation fails on chromedriver's headers ("Content-Length:250", no
    /// space) with "Failed writing header".
    private static func call(_ port: Int, _ method: String, _ path: String, _ body: JSON?, _ driver: ChildProcess) async throws -> JSON {
        let command = "\(method) \(path)"
        let (status, data): (Int, [UInt8])
        do {
            (status, data) = try await exchange(port: port, "\(method) \(path)", body: try body.map { Array(try JSONEncoder().encode($0)) } ?? [])
        } catch {
            throw Failure(command: command, error: "transport", message: "\(error); chromedriver printed:\n\(driver.standardOutput)")
        }
        let value = (try? JSONDecoder().decode(JSON.self, from: Data(data)))?["value"] ?? .null
        guard (200..<300).contains(status) else {
            throw Failure(command: command, error: value["error"]?.string ?? "HTTP \(status)",
                          message: value["message"]?.string ?? String(decoding: data.prefix(500), as: UTF8.self))
        }
        return value
    }

    /// One HTTP/1.1 exchange with 127.0.0.1:`port` (`Connection: close`): the status and body. A blocking
    /// socket on a thread of its own (``onOwnThread(_:)``), each read and write bounded by 120 s.
    private static func exchange(port: Int, _ requestLine: String, body: [UInt8]) async throws -> (Int, [UInt8]) {
        try await onOwnThread {
            func failure(_ what: String) -> Failure { Failure(command: requestLine, error: "transport", message: "\(what): \(String(cString: strerror(errno)))") }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw failure("socket") }
            defer { close(fd) }
            var bound = timeval(tv_sec: 120, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw failure("connect to port \(port)") }
            let head = "\(requestLine) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
                + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n\r\n"
            let request = Array(head.utf8) + body
            var sent = 0
            while sent < request.count {
                let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure("send") }
                sent += n
            }
            // Read to the end of the body Content-Length gives, or to the end of the stream.
            var received: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
            var headerEnd: Int?, length: Int?
            while headerEnd.map({ end in length.map { received.count < end + $0 } ?? true }) ?? true {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw failure("receive") }
                if n == 0 { break }
                received += buffer[..<n]
                if headerEnd == nil, let range = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                    headerEnd = range.upperBound
                    let lines = String(decoding: received[..<range.lowerBound], as: UTF8.self).lowercased().split(separator: "\r\n")
                    length = lines.first { $0.hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
                }
            }
            guard let headerEnd else { throw Failure(command: requestLine, error: "transport", message: "no HTTP response") }
            let statusLine = String(decoding: received.prefix(while: { $0 != 13 }), as: UTF8.self).split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw Failure(command: requestLine, error: "transport", message: "bad status line \(statusLine)")
            }
            return (status, Array(received[headerEnd...].prefix(length ?? .max)))
        }
    }
}
