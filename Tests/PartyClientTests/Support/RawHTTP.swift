import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare HTTP/1.1 exchange over a loopback socket, byte for byte as written (no URL
/// normalisation: path traversal and malformed headers reach the server as sent). Blocking I/O,
/// run on a thread of its own.
enum RawHTTP {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Sends `request` and reads the answer until the server closes, or until `readLimit` body
    /// bytes have arrived (then hangs up mid-body).
    static func exchange(port: Int, _ request: String, readLimit: Int? = nil) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingExchange(port: port, request, readLimit: readLimit) })
            }
        }
    }

    /// `GET path` with optional headers, `Connection: close`.
    static func get(port: Int, _ path: String, method: String = "GET", headers: [String: String] = [:],
                    readLimit: Int? = nil) async throws -> Response {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return try await exchange(port: port, text + "\r\n", readLimit: readLimit)
    }

    private static func blockingExchange(port: Int, _ request: String, readLimit: Int?) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw Failure(description: "send failed")
        }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var headerEnd: Int?
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += chunk[0..<n]
            if headerEnd == nil, let end = find(data, Array("\r\n\r\n".utf8)) { headerEnd = end + 4 }
            if let limit = readLimit, let start = headerEnd, data.count - start >= limit { break }
        }
        guard let start = headerEnd ?? find(data, Array("\r\n\r\n".utf8)).map({ $0 + 4 }) else {
            throw Failure(description: "no HTTP answer (\(data.count) bytes)")
        }
        let lines = String(decoding: data[0..<start], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where line.contains(":") {
            let colon = line.firstIndex(of: ":")!
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(data[start...]))
    }

    private static func find(_ data: [UInt8], _ needle: [UInt8]) -> Int? {
        guard data.count >= needle.count else { return nil }
        for i in 0...(data.count - needle.count) where data[i] == needle[0] && Array(data[i..<i + needle.count]) == needle {
            return i
        }
        return nil
    }
}
