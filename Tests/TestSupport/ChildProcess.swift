import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process for tests, awaited without blocking the cooperative pool.
///
/// It is spawned with `posix_spawnp` (standard input from /dev/null, signals at their defaults,
/// every other descriptor of the test process closed, so a child never holds another test's pipe
/// open). Its captured standard output and error are read by threads of their own as they come, and
/// its exit is collected by another thread's `waitpid` — never by Foundation's `Process`, whose exit
/// notification goes missing when a grandchild keeps its descriptors (a daemon, mpv under syncplay).
/// Tests await what they need: a line, some text, the exit; each wait has a failure bound and
/// throws ``TimedOut`` past it.
///
/// A child still running when its `ChildProcess` is released is killed (SIGKILL).
public final class ChildProcess: Sendable {
    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// Read by the test: ``standardOutput``, ``output(containing:from:within:)``, ``line(from:within:where:)``.
        case capture
        /// /dev/null.
        case discard
        /// The test process's own stream.
        case inherit
        /// A file, created or truncated.
        case file(String)
        /// A descriptor the test owns (e.g. one end of its own pipe); the child gets a copy.
        case descriptor(Int32)
        /// For standard error only: wherever standard output goes (both in one capture or file).
        case standardOutput
    }

    /// One of the child's output streams.
    public enum Stream: Sendable { case standardOutput, standardError }

    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, or nil when a signal ended it.
        public var status: Int32? { if case .exited(let status) = self { status } else { nil } }
        public var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// A finished run: how it ended and what it printed (``run(_:_:environment:adding:standardOutput:standardError:within:)``).
    public struct Result: Sendable {
        public let termination: Termination
        public let standardOutputBytes: [UInt8]
        public let standardErrorBytes: [UInt8]
        /// The exit status (128 + the signal when a signal ended it, as a shell says).
        public var status: Int32 {
            switch termination {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
        public var standardOutput: String { String(decoding: standardOutputBytes, as: UTF8.self) }
        public var standardError: String { String(decoding: standardErrorBytes, as: UTF8.self) }
    }

    /// The child could not be started.
    public struct SpawnFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The stream ended (the child closed it or exited) before what was awaited came.
    public struct StreamEnded: Error, CustomStringConvertible {
        public let what: String
        public let output: String
        public var description: String { "the child's output ended before \(what); it printed:\n\(output)" }
    }

    public let processIdentifier: pid_t
    /// What was started, for messages.
    public let commandLine: String
    private let shared: Shared

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`.
    /// - Parameters:
    ///   - environment: the child's whole environment; nil: the test process's, with `adding` set
    ///     and `removing` removed.
    public convenience init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                            adding: [String: String] = [:], removing: [String] = [],
                            standardOutput: Output = .capture, standardError: Output = .capture) throws {
        try self.init(executable, arguments, environment: environment, adding: adding, removing: removing,
                      standardOutput: standardOutput, standardError: standardError, removingAfterExit: nil)
    }

    /// `removingAfterExit`: a folder of the child's own, deleted once it has exited.
    init(_ executable: String, _ arguments: [String], environment: [String: String]?,
         adding: [String: String], removing: [String],
         standardOutput: Output, standardError: Output, removingAfterExit folder: String?) throws {
        var variables = environment ?? ProcessInfo.processInfo.environment
        variables.merge(adding) { $1 }
        for name in removing { variables.removeValue(forKey: name) }
        commandLine = ([executable] + arguments).joined(separator: " ")
        let shared = Shared()
        self.shared = shared

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // The parent's ends of the capture pipes (read) and the child's (write, closed here after the spawn).
        var readers: [(Int32, Stream)] = []
        var childEnds: [Int32] = []
        defer { childEnds.forEach { _ = close($0) } }
        func capturePipe(_ stream: Stream) throws -> Int32 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw SpawnFailure(description: "pipe: \(String(cString: strerror(errno)))") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            readers.append((fds[0], stream))
            childEnds.append(fds[1])
            return fds[1]
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .capture:
                posix_spawn_file_actions_adddup2(&actions, try capturePipe(target == 1 ? .standardOutput : .standardError), target)
            case .discard:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .inherit:
                break
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .standardOutput:
                precondition(target == 2, "only standard error can go where standard output goes")
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            }
        }
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            readers.forEach { _ = close($0.0) }
            throw SpawnFailure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        processIdentifier = pid
        shared.start(pid: pid, readers: readers, removingAfterExit: folder)
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Swift's Glibc module does not show.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Starts the built `tandem` (``Repository/tandem()``) with `arguments`.
    ///
    /// Unless `adding` names them, its XDG_CONFIG_HOME, XDG_STATE_HOME and XDG_CACHE_HOME are
    /// folders of its own, deleted when it exits: tandem processes of tests running at the same
    /// time never share configuration, kept volume, watch-later entries, TLS identities or known
    /// servers. A test that needs state across runs passes its own folders.
    public static func tandem(_ arguments: [String], environment: [String: String]? = nil, adding: [String: String] = [:],
                              standardOutput: Output = .capture, standardError: Output = .capture) throws -> ChildProcess {
        var variables = adding
        var own: TemporaryFolder?
        let xdg = ["XDG_CONFIG_HOME": "config", "XDG_STATE_HOME": "state", "XDG_CACHE_HOME": "cache"]
        if xdg.keys.contains(where: { adding[$0] == nil }) {
            let folder = try TemporaryFolder("xdg")
            own = folder
            for (name, sub) in xdg where adding[name] == nil { variables[name] = folder.path(sub) }
        }
        do {
            return try ChildProcess(try Repository.tandem(), arguments, environment: environment, adding: variables, removing: [],
                                    standardOutput: standardOutput, standardError: standardError, removingAfterExit: own?.path)
        } catch {
            own?.remove()
            throw error
        }
    }

    /// Runs `executable` to its end (its exit and the end of its captured output) and returns what it
    /// printed; throws ``TimedOut`` (the child killed) after `seconds`.
    /// A stream that is not captured is not waited for: a daemon the child leaves behind (`pg_ctl
    /// start`) may keep it open.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           adding: [String: String] = [:], standardOutput: Output = .capture, standardError: Output = .capture,
                           within seconds: Double = 120) async throws -> Result {
        let child = try ChildProcess(executable, arguments, environment: environment, adding: adding,
                                     standardOutput: standardOutput, standardError: standardError)
        do {
            _ = try await child.exit(within: seconds)
        } catch {
            child.kill()
            throw error
        }
        return child.result!
    }

    /// Runs the built `tandem` with `arguments` to its end (``run(_:_:environment:adding:standardOutput:standardError:within:)``).
    /// Its XDG folders are its own unless `adding` names them (``tandem(_:environment:adding:standardOutput:standardError:)``).
    public static func runTandem(_ arguments: [String], environment: [String: String]? = nil, adding: [String: String] = [:],
                                 within seconds: Double = 120) async throws -> Result {
        let child = try tandem(arguments, environment: environment, adding: adding)
        do {
            _ = try await child.exit(within: seconds)
        } catch {
            child.kill()
            throw error
        }
        return child.result!
    }

    deinit {
        if isRunning { Glibc.kill(processIdentifier, SIGKILL) }
    }

    /// Whether the child has not been seen to exit yet.
    public var isRunning: Bool { shared.state.withLock { $0.termination == nil } }

    /// How it ended, once it has.
    public var termination: Termination? { shared.state.withLock { $0.termination } }

    /// Its whole run, once it has exited and its captured output has ended.
    public var result: Result? {
        shared.state.withLock { state in
            guard let termination = state.termination, state.openStreams == 0 else { return nil }
            return Result(termination: termination, standardOutputBytes: state.output, standardErrorBytes: state.errors)
        }
    }

    /// Its captured standard output so far.
    public var standardOutput: String { String(decoding: shared.state.withLock { $0.output }, as: UTF8.self) }
    /// Its captured standard output so far, as bytes.
    public var standardOutputBytes: [UInt8] { shared.state.withLock { $0.output } }
    /// Its captured standard error so far.
    public var standardError: String { String(decoding: shared.state.withLock { $0.errors }, as: UTF8.self) }

    /// Sends `signal` unless the child has already been seen to exit.
    public func signal(_ signal: Int32) {
        shared.state.withLock { state in
            if state.termination == nil { _ = Glibc.kill(processIdentifier, signal) }
        }
    }

    /// SIGTERM.
    public func terminate() { signal(SIGTERM) }
    /// SIGINT, as Ctrl-C.
    public func interrupt() { signal(SIGINT) }
    /// SIGKILL.
    public func kill() { signal(SIGKILL) }

    /// Waits for the child's exit and the end of its captured output; throws ``TimedOut`` after
    /// `seconds` (the child is left running: ``stop(grace:)`` or release it).
    @discardableResult
    public func exit(within seconds: Double = defaultBound) async throws -> Termination {
        try await shared.wait(for: "\(commandLine) to exit", within: seconds) { state in
            state.openStreams == 0 ? state.termination : nil
        }
    }

    /// Ends the child: SIGTERM, SIGKILL if it is still there after `grace` seconds; returns once it
    /// has exited.
    public func stop(grace: Double = 3) async {
        guard isRunning else {
            _ = try? await exit(within: defaultBound)
            return
        }
        terminate()
        if (try? await exit(within: grace)) != nil { return }
        kill()
        _ = try? await exit(within: defaultBound)
    }

    /// Waits until `stream` holds `text`; returns all of that stream so far. Throws
    /// ``StreamEnded`` if the stream ends first, ``TimedOut`` after `seconds`.
    @discardableResult
    public func output(containing text: String, from stream: Stream = .standardOutput,
                       within seconds: Double = defaultBound) async throws -> String {
        let what = "\(text.debugDescription) from \(commandLine)"
        let found: Bool = try await shared.wait(for: what, within: seconds) { state in
            let bytes = stream == .standardOutput ? state.output : state.errors
            if String(decoding: bytes, as: UTF8.self).contains(text) { return true }
            return state.isOpen(stream) ? nil : false
        }
        let all = stream == .standardOutput ? standardOutput : standardError
        guard found else { throw StreamEnded(what: what, output: all) }
        return all
    }

    /// Waits for the first complete line of `stream` for which `predicate` holds; returns it
    /// (without its newline). Throws ``StreamEnded`` if the stream ends first, ``TimedOut`` after `seconds`.
    public func line(from stream: Stream = .standardOutput, within seconds: Double = defaultBound,
                     where predicate: @escaping @Sendable (String) -> Bool) async throws -> String {
        let what = "a matching line from \(commandLine)"
        let found: String? = try await shared.wait(for: what, within: seconds) { state in
            let bytes = stream == .standardOutput ? state.output : state.errors
            let text = String(decoding: bytes, as: UTF8.self)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if !text.hasSuffix("\n") { lines.removeLast() }  // the incomplete last line
            if let line = lines.first(where: { predicate(String($0)) }) { return .some(String(line)) }
            return state.isOpen(stream) ? nil : .some(nil)
        }
        guard let found else {
            throw StreamEnded(what: what, output: stream == .standardOutput ? standardOutput : standardError)
        }
        return found
    }

    /// The first complete line of `stream` starting with `prefix` (``line(from:within:where:)``).
    public func line(startingWith prefix: String, from stream: Stream = .standardOutput,
                     within seconds: Double = defaultBound) async throws -> String {
        try await line(from: stream, within: seconds) { $0.hasPrefix(prefix) }
    }

    /// The state the child's threads update and the waits watch.
    final class Shared: Sendable {
        struct State {
            var output: [UInt8] = []
            var errors: [UInt8] = []
            var outputOpen = false
            var errorsOpen = false
            var termination: Termination?
            var waiters: [UInt64: Waiter] = [:]
            var nextWaiter: UInt64 = 0

            var openStreams: Int { (outputOpen ? 1 : 0) + (errorsOpen ? 1 : 0) }
            func isOpen(_ stream: Stream) -> Bool { stream == .standardOutput ? outputOpen : errorsOpen }
        }

        /// What a new wait found.
        enum WaitOutcome { case ready(State), cancelled, registered }

        /// A wait: resumed (and removed) once `check` gives a value.
        struct Waiter {
            let check: @Sendable (State) -> Bool
            let resume: @Sendable (State) -> Void
            let cancel: @Sendable () -> Void
        }

        let state = Mutex(State())

        func start(pid: pid_t, readers: [(Int32, Stream)], removingAfterExit folder: String?) {
            state.withLock { state in
                for (_, stream) in readers {
                    if stream == .standardOutput { state.outputOpen = true } else { state.errorsOpen = true }
                }
            }
            for (fd, stream) in readers {
                let thread = Thread { [self] in read(fd, stream) }
                thread.stackSize = 1 << 20
                thread.start()
            }
            let reaper = Thread { [self] in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let termination: Termination = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
                if let folder { try? FileManager.default.removeItem(atPath: folder) }
                update { $0.termination = termination }
            }
            reaper.stackSize = 1 << 20
            reaper.start()
        }

        private func read(_ fd: Int32, _ stream: Stream) {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                update { state in
                    if stream == .standardOutput {
                        state.output += buffer[0..<n]
                    } else {
                        state.errors += buffer[0..<n]
                    }
                }
            }
            close(fd)
            update { state in
                if stream == .standardOutput { state.outputOpen = false } else { state.errorsOpen = false }
            }
        }

        /// Changes the state, then resumes the waits it satisfies.
        private func update(_ change: (inout State) -> Void) {
            let (ready, snapshot) = state.withLock { state -> ([Waiter], State) in
                change(&state)
                let ready = state.waiters.filter { $0.value.check(state) }
                for id in ready.keys { state.waiters.removeValue(forKey: id) }
                return (Array(ready.values), state)
            }
            for waiter in ready { waiter.resume(snapshot) }
        }

        /// Waits until `value` gives a result for the state; throws ``TimedOut`` after `seconds`.
        func wait<T: Sendable>(for what: String, within seconds: Double,
                               _ value: @escaping @Sendable (State) -> T?) async throws -> T {
            try await TestSupport.within(seconds, what) { [self] in
                let id = state.withLock { state -> UInt64 in
                    state.nextWaiter += 1
                    return state.nextWaiter
                }
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                        let outcome: WaitOutcome = state.withLock { state in
                            if Task.isCancelled { return .cancelled }
                            if value(state) != nil { return .ready(state) }
                            state.waiters[id] = Waiter(
                                check: { value($0) != nil },
                                resume: { continuation.resume(returning: value($0)!) },
                                cancel: { continuation.resume(throwing: CancellationError()) })
                            return .registered
                        }
                        switch outcome {
                        case .ready(let now): continuation.resume(returning: value(now)!)
                        case .cancelled: continuation.resume(throwing: CancellationError())
                        case .registered: break
                        }
                    }
                } onCancel: { [self] in
                    state.withLock { $0.waiters.removeValue(forKey: id) }?.cancel()
                }
            }
        }
    }
}
