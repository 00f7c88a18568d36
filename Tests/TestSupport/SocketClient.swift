#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `send(2)` without SIGPIPE when the server has closed the socket.
private func posixSend(_ fd: CInt, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.send(fd, bytes, count, 0)  // SO_NOSIGPIPE is set on the socket
    #elseif canImport(Musl)
    Musl.send(fd, bytes, count, CInt(MSG_NOSIGNAL))
    #else
    Glibc.send(fd, bytes, count, CInt(MSG_NOSIGNAL))
    #endif
}

/// Failures of the test client.
public struct SocketClientError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// A line client on a plain POSIX `AF_UNIX` socket, like `socat` would be: mpv's JSON IPC as the
/// MPVIPC server, `tandem --ipc` or a real mpv speak it.
///
/// The socket is non-blocking and waiting is done with `Task.sleep`, so tests never block a
/// cooperative thread the server's tasks need.
public final class SocketClient {
    private let fd: CInt
    private var received: [UInt8] = []

    /// Connects to the socket at `path`.
    public init(path: String) throws {
        // The descriptor is the object's only once connected: a failed attempt closes it here, and
        // no deinit closes that number again (by then another thread's file, a child's pipe, may have it).
        #if canImport(Darwin)
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw SocketClientError(description: "socket: \(Self.errorText())") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            close(descriptor)
            throw SocketClientError(description: "path too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let text = Self.errorText()
            close(descriptor)
            throw SocketClientError(description: "connect \(path): \(text)")
        }
        #if canImport(Darwin)
        var on: CInt = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<CInt>.size))
        #endif
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        fd = descriptor
    }

    deinit {
        close(fd)
    }

    /// Sends raw text (add the newline yourself). Stops early if the server closed the socket.
    @discardableResult
    public func send(_ text: String, timeout: Duration = .seconds(5)) async throws -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { posixSend(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard clock.now < deadline else { throw SocketClientError(description: "send timed out") }
                try await Task.sleep(for: .milliseconds(2))
            } else if errno == EPIPE || errno == ECONNRESET {
                return false
            } else {
                throw SocketClientError(description: "send: \(Self.errorText())")
            }
        }
        return true
    }

    /// Connects to the socket at `path`, retrying while it does not exist or nobody accepts on it
    /// yet (a child process creating it), for at most `seconds`.
    public static func connect(path: String, within seconds: Double = defaultBound) async throws -> SocketClient {
        var client: SocketClient?
        try await waitUntil("a server on \(path)", within: seconds) {
            client = try? SocketClient(path: path)
            return client != nil
        }
        return client!
    }

    /// Sends `line` and its newline; the next line that comes back, or "" when the server closed
    /// the connection first.
    public func request(_ line: String, timeout: Duration = .seconds(30)) async throws -> String {
        guard try await send(line + "\n", timeout: timeout) else { return "" }
        do {
            return try await nextLine(timeout: timeout)
        } catch let error as SocketClientError where error.description == Self.closedText {
            return ""
        }
    }

    static let closedText = "server closed the connection"

    /// Closes the sending direction, like `socat` does when its input ends.
    public func shutdownSending() {
        shutdown(fd, CInt(SHUT_WR))
    }

    /// The next raw line from the server, without its newline.
    public func nextLine(timeout: Duration = .seconds(5)) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: received[..<newline], as: UTF8.self)
                received.removeSubrange(...newline)
                return line
            }
            switch readSome() {
            case .data: continue
            case .closed: throw SocketClientError(description: Self.closedText)
            case .wouldBlock:
                guard clock.now < deadline else { throw SocketClientError(description: "no reply within \(timeout)") }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    /// Waits until the server closes the connection (anything received meanwhile is discarded).
    /// Returns `false` on timeout.
    public func waitUntilClosed(timeout: Duration = .seconds(5)) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            switch readSome() {
            case .closed: return true
            case .data: received.removeAll()
            case .wouldBlock: try await Task.sleep(for: .milliseconds(2))
            }
        }
        return false
    }

    /// Whether nothing arrives for `duration`.
    public func staysSilent(for duration: Duration) async throws -> Bool {
        try await Task.sleep(for: duration)
        if case .data = readSome() { return false }
        return received.isEmpty
    }

    private enum ReadResult { case data, closed, wouldBlock }

    private func readSome() -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            received.append(contentsOf: chunk[..<count])
            return .data
        }
        if count == 0 { return .closed }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .closed  // ECONNRESET and the like
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
