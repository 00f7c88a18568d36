import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for tests that must name one before something listens on it (a child process
/// given `--port N`, a server stopped and started again on the same port). Servers the tests start
/// once listen on port 0 and say which they got.
public enum LoopbackPort {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// The kernel's ephemeral port range (ip_local_port_range): where it picks the ports of servers
    /// bound to port 0 and of outgoing connections.
    public static let ephemeral: ClosedRange<Int> = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let bounds = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        return bounds.count == 2 && bounds[0] <= bounds[1] ? bounds[0]...bounds[1] : 32768...60999
    }()

    /// A loopback port nobody listens on now, outside the kernel's ephemeral range, so that no server
    /// bound to port 0 and no outgoing connection of a test running meanwhile takes it: the port
    /// stays free until the test listens on it — again after a restart — or dials it to be refused.
    /// Picked at random below the ephemeral range and checked by binding it.
    public static func free() throws -> Int {
        let candidates = 10_000..<min(ephemeral.lowerBound, 32_768)
        for _ in 0..<200 {
            let port = Int.random(in: candidates)
            if try bindable(port) { return port }
        }
        throw Failure(description: "no free loopback port in \(candidates)")
    }

    /// Whether 127.0.0.1:`port` can be bound now (it is bound, then closed).
    private static func bindable(_ port: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` now. A non-blocking connect,
    /// its answer awaited with `Task.sleep`: the cooperative pool is never blocked.
    public static func isAccepting(_ port: Int, host: String = "127.0.0.1") async -> Bool {
        let ipv6 = host.contains(":")
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr(host)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        if result == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while clock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, 0) > 0 {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                return error == 0
            }
            guard (try? await Task.sleep(for: .milliseconds(5))) != nil else { return false }
        }
        return false
    }

    /// Waits until something accepts connections on `port`; throws ``TimedOut`` after `seconds`.
    public static func waitForListener(_ port: Int, host: String = "127.0.0.1", within seconds: Double = defaultBound) async throws {
        try await waitUntil("a listener on \(host) port \(port)", within: seconds) { await isAccepting(port, host: host) }
    }
}
