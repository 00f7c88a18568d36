import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on loopback that forwards everything to a local port, and throttles what the
/// server sends on *media* connections (those whose first request asks for `/media/`): after a
/// `burst` of free bytes, at most `bytesPerSecond` over all of them, until ``lift()``. The party's
/// WebSocket through it is never throttled, so a member behind it keeps its clock and its
/// messages while its stream crawls.
///
/// Blocking sockets, two threads per connection: a test tool, small and obvious. The throttle
/// reads from the server only what it may forward, so the kernel's buffers, not this process,
/// hold the rest (the server sees a slow reader).
final class ThrottlingProxy: @unchecked Sendable {
    /// Largest read per turn.
    static let readBytes = 4096
    /// How often a throttled connection looks again for allowance.
    static let refillInterval = 0.02

    let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    private var freeBytes: Int
    private var tokens = 0.0
    private var lastRefill = Date()
    private let bytesPerSecond: Double
    private var lifted = false
    private var closed = false
    private var sockets: Set<Int32> = []
    private var throttledBytes = 0

    init(target: Int, burst: Int, bytesPerSecond: Int) throws {
        self.target = target
        freeBytes = burst
        self.bytesPerSecond = Double(bytesPerSecond)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Media bytes forwarded under the throttle (after the burst, before the lift).
    var throttled: Int { lock.withLock { throttledBytes } }

    /// No more throttling: the link is healthy again.
    func lift() { lock.withLock { lifted = true } }

    /// Closes the listener and every connection (their threads end on the closed sockets).
    func close() {
        let open = lock.withLock { () -> Set<Int32> in
            closed = true
            return sockets
        }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: UInt16(target))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            let accepted = lock.withLock { () -> Bool in
                guard !closed, connected == 0 else { return false }
                sockets.formUnion([client, server])
                return true
            }
            guard accepted else {
                Glibc.close(client)
                Glibc.close(server)
                continue
            }
            let media = MediaFlag()
            Thread.detachNewThread { [self] in forwardRequests(from: client, to: server, media: media) }
            Thread.detachNewThread { [self] in forwardAnswers(from: server, to: client, media: media) }
        }
    }

    /// Client → server, as is; the first bytes say whether this is a media connection.
    private func forwardRequests(from client: Int32, to server: Int32, media: MediaFlag) {
        var buffer = [UInt8](repeating: 0, count: Self.readBytes)
        var first = true
        while true {
            let n = read(client, &buffer, buffer.count)
            guard n > 0 else { break }
            if first {
                first = false
                let line = String(decoding: buffer[0..<n].prefix { $0 != 0x0A }, as: UTF8.self)
                media.set(line.contains("/media/"))
            }
            guard writeAll(server, buffer, n) else { break }
        }
        shutdown(server, Int32(SHUT_WR))
        finish(client, server, side: 0)
    }

    /// Server → client, throttled on a media connection.
    private func forwardAnswers(from server: Int32, to client: Int32, media: MediaFlag) {
        var buffer = [UInt8](repeating: 0, count: Self.readBytes)
        while true {
            let allowed = media.isMedia ? allowance(max: buffer.count) : buffer.count
            guard allowed > 0 else { break }
            let n = read(server, &buffer, allowed)
            guard n > 0 else { break }
            if media.isMedia { giveBack(allowed - n) }
            guard writeAll(client, buffer, n) else { break }
        }
        shutdown(client, Int32(SHUT_WR))
        finish(client, server, side: 1)
    }

    /// Bytes a media connection may read now, waiting for them (0 once closed).
    private func allowance(max: Int) -> Int {
        while true {
            let granted = lock.withLock { () -> Int? in
                if closed { return 0 }
                if lifted { return max }
                if freeBytes > 0 {
                    let n = min(max, freeBytes)
                    freeBytes -= n
                    return n
                }
                let now = Date()
                tokens = min(tokens + now.timeIntervalSince(lastRefill) * bytesPerSecond, Double(Self.readBytes))
                lastRefill = now
                guard tokens >= 1 else { return nil }
                let n = min(max, Int(tokens))
                tokens -= Double(n)
                throttledBytes += n
                return n
            }
            if let granted { return granted }
            Thread.sleep(forTimeInterval: Self.refillInterval)
        }
    }

    private func giveBack(_ unused: Int) {
        guard unused > 0 else { return }
        lock.withLock { tokens += Double(unused) }
    }

    private func writeAll(_ fd: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var sent = 0
        while sent < count {
            let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + sent, count - sent) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Each connection's two threads: the second to end closes both sockets (their one owner).
    private let ended = NSLock()
    private var halves: [Int32: Int] = [:]
    private func finish(_ client: Int32, _ server: Int32, side: Int) {
        let last = ended.withLock { () -> Bool in
            halves[client, default: 0] += 1
            return halves[client] == 2
        }
        guard last else { return }
        lock.withLock { sockets.subtract([client, server]) }
        Glibc.close(client)
        Glibc.close(server)
        ended.withLock { _ = halves.removeValue(forKey: client) }
    }

    /// Whether a connection carries media, decided by its first request line.
    private final class MediaFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set(_ media: Bool) { lock.withLock { value = media } }
        var isMedia: Bool { lock.withLock { value } }
    }
}
