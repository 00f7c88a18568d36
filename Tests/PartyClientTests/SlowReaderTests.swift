import Foundation
import PartyKit
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Readers that ask for a large file and never read its body: the server sends from the file as
/// the socket takes it (a file region waits for writability), so its memory does not grow with
/// what they asked for, and every other reader is served meanwhile. The server is a real
/// `tandem host` process, so its memory is measured alone (tests run in parallel in this one).
@Suite(.serialized) struct SlowReaderTests {
    /// Each slow reader asks for this much: far beyond what the kernel's socket buffers hold.
    static let fileBytes: Int64 = 256 << 20
    static let readers = 8
    /// The server's resident memory may grow by at most this while they hang (buffering their
    /// bodies would take `readers × fileBytes`, 2 GiB).
    static let memoryBound = 64 << 20

    @Test func readersThatNeverReadHoldNoBuffersAndOthersAreServed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The party's file followed by a sparse tail (no disk used): a 256 MiB item that still opens.
        let big = folder.appendingPathComponent("big.mp4")
        try FileManager.default.copyItem(atPath: MediaServingTests.file, toPath: big.path)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(Self.fileBytes))
        try handle.close()

        let host = try ChildProcess.tandem(["host", big.path, "--headless", "--listen", "127.0.0.1:0", "--party", "hog", "--key", "k",
                                            "--json", "--duration", "120", "--insecure"], standardError: .discard)
        let firstLine = try await host.line { _ in true }
        let port = try #require(Self.port(fromLink: firstLine), "the host printed no link: \(firstLine)")
        let auth = "Authorization: Bearer \(MediaToken.derive(key: "k", party: "hog"))"
        let path = MediaPath.path(party: "hog", item: 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: MediaServingTests.file)))
        let range = ["Authorization": String(auth.dropFirst("Authorization: ".count)), "Range": "bytes=0-\(bytes.count - 1)"]
        let warm = try await RawHTTP.get(port: port, path, headers: range)
        #expect(warm.status == 206 && warm.body == bytes)
        let before = try #require(Self.residentBytes(of: host.processIdentifier))

        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        for _ in 0..<Self.readers {
            // Blocking socket calls: on a thread of their own, not the cooperative pool.
            let (fd, head) = try await onOwnThread { () throws -> (Int32, [UInt8]) in
                let fd = try Self.connect(port: port)
                try Self.send(fd, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(auth)\r\n\r\n")
                // The answer's first bytes only: its body has begun, and is never read.
                var head = [UInt8](repeating: 0, count: 12)
                let n = read(fd, &head, head.count)
                return (fd, Array(head.prefix(max(n, 0))))
            }
            sockets.append(fd)
            #expect(head.count == 12)
            #expect(String(decoding: head, as: UTF8.self) == "HTTP/1.1 200")
        }
        // Meanwhile other readers are served in full, and the server's memory stays put.
        var peak = before
        for _ in 0..<5 {
            let answer = try await RawHTTP.get(port: port, path, headers: range)
            #expect(answer.status == 206 && answer.body == bytes)
            peak = max(peak, Self.residentBytes(of: host.processIdentifier) ?? 0)
        }
        #expect(peak - before < Self.memoryBound, "the server grew by \((peak - before) >> 20) MiB with \(Self.readers) stuck readers")
        #expect(host.isRunning)
        await host.stop()
    }

    /// The port of the link in `tandem host --json`'s first line (`{"event":"party","link":"tandem://127.0.0.1:PORT/…`).
    static func port(fromLink line: String) -> Int? {
        guard let start = line.range(of: "://127.0.0.1:")?.upperBound else { return nil }
        return Int(line[start...].prefix { $0.isNumber })
    }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4096  // a small receive buffer: the reader's side holds little
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// A process's resident set (VmRSS), in bytes.
    static func residentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kib * 1024
    }
}
