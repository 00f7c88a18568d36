import Foundation
import Synchronization

/// A small HTTP/1.1 file server on loopback for tests (POSIX sockets, a thread per connection):
/// `GET` of named byte arrays with single byte ranges (206 and `Content-Range`, as FFmpeg's http
/// protocol asks for), one request per connection. A name can be held: its requests wait,
/// unanswered, until ``release(_:)`` (a server slower than any timeout), so a test can assert what
/// the client shows before the network answers without any timing.
final class GatedHTTPServer: Sendable {
    private struct State {
        var files: [String: [UInt8]] = [:]
        var held: Set<String> = []
        /// Names answered so far, in order.
        var answered: [String] = []
        var stopped = false
    }

    let port: Int
    private let listener: Int32
    private let state = Mutex(State())
    private let changed = NSCondition()

    init(files: [String: [UInt8]], held: Set<String> = []) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        state.withLock {
            $0.files = files
            $0.held = held
        }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "test.http-accept"
        thread.start()
    }

    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)" }

    /// Names whose requests were answered, in order.
    var answered: [String] { state.withLock { $0.answered } }

    /// Answers the held requests for `name` and those to come.
    func release(_ name: String) {
        changed.lock()
        state.withLock { _ = $0.held.remove(name) }
        changed.broadcast()
        changed.unlock()
    }

    /// Stops accepting; held requests are dropped unanswered.
    func stop() {
        changed.lock()
        state.withLock { $0.stopped = true }
        changed.broadcast()
        changed.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let worker = Thread { [self] in
                serve(connection)
                close(connection)
            }
            worker.start()
        }
    }

    private func serve(_ fd: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            request += buffer[0..<n]
        }
        let text = String(decoding: request, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return }
        let name = String(parts[1].dropFirst())
        // Held: wait until released or stopped.
        changed.lock()
        while state.withLock({ !$0.stopped && $0.held.contains(name) }) { changed.wait() }
        changed.unlock()
        guard let body = state.withLock({ s -> [UInt8]? in s.stopped ? nil : s.files[name] }) else {
            send(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        var first = 0
        var last = body.count - 1
        var status = "200 OK"
        var extra = ""
        if let range = lines.first(where: { $0.lowercased().hasPrefix("range: bytes=") }) {
            let spec = range.dropFirst("range: bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
            first = Int(spec[0]) ?? 0
            if spec.count > 1, let end = Int(spec[1]) { last = min(end, body.count - 1) }
            guard first < body.count else {
                send(fd, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(body.count)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
            status = "206 Partial Content"
            extra = "Content-Range: bytes \(first)-\(last)/\(body.count)\r\n"
        }
        state.withLock { $0.answered.append(name) }
        send(fd, "HTTP/1.1 \(status)\r\nAccept-Ranges: bytes\r\n\(extra)Content-Length: \(last - first + 1)\r\nConnection: close\r\n\r\n")
        send(fd, Array(body[first...last]))
    }

    private func send(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
