import Foundation
import Logging
import PartyKit
import PartyNet
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Readers that ask for a large file and never read it: the server sends from the file as the
/// socket takes it (a file region waits for writability), so its memory does not grow with what
/// they asked for, and every other party is served meanwhile.
@Suite(.serialized) struct SlowReaderTests {
    /// Each slow reader asks for this much: far beyond what the kernel's socket buffers hold.
    static let fileBytes: Int64 = 256 << 20
    static let readers = 8
    /// The server's resident memory may grow by at most this while they hang (buffering their
    /// bodies would take `readers × fileBytes`, 2 GiB).
    static let memoryBound = 64 << 20

    @Test func readersThatNeverReadHoldNoBuffersAndOtherPartiesGoOn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.bin").path
        _ = FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: UInt64(Self.fileBytes))  // sparse: no disk used
        try handle.close()

        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        server.media.serve(party: "hog", key: "k", files: [0: big])
        server.media.serve(party: "other", key: "k2", files: [0: MediaServingTests.file])
        let before = Self.residentBytes()

        let request = "GET \(MediaPath.path(party: "hog", item: 0)) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: Bearer \(MediaToken.derive(key: "k", party: "hog"))\r\n\r\n"
        let sockets = try (0..<Self.readers).map { _ in try Self.connectAndSend(port: port, request) }
        defer { for fd in sockets { close(fd) } }
        #expect(await PartyLoopbackTests.waitUntil(30) { server.media.servedBodies >= Self.readers }, "every body begun")

        // Meanwhile another party's members are served in full.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: MediaServingTests.file)))
        var peak = Self.residentBytes()
        for _ in 0..<5 {
            let answer = try await RawHTTP.get(port: port, MediaPath.path(party: "other", item: 0),
                                               headers: ["Authorization": "Bearer \(MediaToken.derive(key: "k2", party: "other"))"])
            #expect(answer.status == 200 && answer.body == bytes)
            peak = max(peak, Self.residentBytes())
        }
        #expect(peak - before < Self.memoryBound, "resident memory grew by \((peak - before) >> 20) MiB with \(Self.readers) stuck readers")
        await server.stop()
    }

    static func connectAndSend(port: Int, _ request: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4096  // a small receive buffer: the reader's side holds little
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        let sent = request.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count - 1) }
        guard sent == request.utf8.count else {
            close(fd)
            throw POSIXError(.EIO)
        }
        return fd
    }

    /// This process's resident set (VmRSS), in bytes.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib * 1024
    }
}
