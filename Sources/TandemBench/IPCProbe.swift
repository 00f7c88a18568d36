import TandemApp
import Foundation
import MPVIPC
import PlayerCore

/// A blocking mpv-IPC client for measurements: one request line, one reply line, timed on the
/// host's monotonic clock (all processes on one machine share it).
package final class IPCProbe {
    package let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []

    package init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw BenchError("\(path): path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw BenchError("\(path): cannot connect: \(reason)")
        }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends `{"command": command}` and returns the reply's data with the send and receive instants
    /// (events that arrive meanwhile are skipped).
    package func request(_ command: [JSONValue]) throws -> (data: JSONValue?, sent: Double, received: Double) {
        let clock = MonotonicTimeSource()
        let line = Array((JSONValue.object(["command": .array(command)]).serialized + "\n").utf8)
        let sent = clock.now()
        try line.withUnsafeBytes { raw in
            guard write(fd, raw.baseAddress, raw.count) == raw.count else { throw BenchError("\(path): write failed") }
        }
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let reply = JSONValue.parse(String(decoding: buffer[..<newline], as: UTF8.self))
                buffer.removeFirst(newline + 1)
                guard case .object(let members)? = reply, members["event"] == nil else { continue }
                return (members["data"], sent, clock.now())
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw BenchError("\(path): connection closed") }
            buffer += chunk[0..<n]
        }
    }
}
