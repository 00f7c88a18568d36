import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `playlist-next` / `playlist-prev` over mpv IPC on a headless `tandem play A B` (the built binary).
@Suite struct PlaylistIPCTests {
    /// A blocking mpv IPC client on a UNIX socket: one request, one reply line.
    final class Client {
        let fd: CInt

        /// Connects to `path`, retrying while the player (re)creates its socket, up to `timeout` seconds.
        init(path: String, timeout: Double = 20) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let fd = socket(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { raw in
                    raw.copyBytes(from: path.utf8)
                    raw[path.utf8.count] = 0
                }
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
                if connected == 0 {
                    var limit = timeval(tv_sec: 20, tv_usec: 0)  // a failure bound, not a synchronisation
                    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                    self.fd = fd
                    return
                }
                close(fd)
                guard Date() < deadline else { throw CocoaError(.fileNoSuchFile) }
                usleep(20_000)  // polling for the socket to appear
            }
        }

        deinit { close(fd) }

        /// Sends `line` and returns the reply line ("" when the connection closed first).
        func request(_ line: String) -> String {
            _ = (line + "\n").withCString { send(fd, $0, strlen($0), CInt(MSG_NOSIGNAL)) }
            var reply: [UInt8] = []
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) == 1 {
                if byte == UInt8(ascii: "\n") { break }
                reply.append(byte)
            }
            return String(decoding: reply, as: UTF8.self)
        }

        /// Asks for `duration` until it is `seconds` (the file of that length plays): true when it is,
        /// false when the connection closed or it never came (the socket is up before the first file).
        func awaitFile(lasting seconds: Int) -> Bool {
            for _ in 0..<2000 {
                let reply = request(#"{"command":["get_property","duration"]}"#)
                if reply.isEmpty { return false }
                if reply.contains("\"data\":\(seconds),") { return true }
                usleep(5_000)  // polling: between files the property is unavailable
            }
            return false
        }
    }

    @Test func playlistNextMovesOnAndTheEndsRefuse() throws {
        let socketPath = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-pl-\(UUID().uuidString.prefix(8)).sock").path
        let process = Process()
        process.executableURL = try URLOpenErrorTests.binary()
        // Each file loops: only playlist-next leaves the first, only quit ends the second.
        process.arguments = ["play", "--headless", "--json", "--loop-file", "--ipc", socketPath,
                             TestAssets.path("video-only.mp4"), TestAssets.path("odd-dims.mp4")]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let first = try Client(path: socketPath)
        #expect(first.awaitFile(lasting: 3))
        #expect(first.request(#"{"command":["playlist-prev"],"request_id":1}"#).contains(#""error":"error running command""#))
        #expect(first.request(#"{"command":["playlist-next"],"request_id":2}"#).contains(#""error":"success""#))
        // The same connection, as mpv keeps its socket from file to file: once the second file
        // plays (its duration, 2 s, answers), there is nothing after it.
        #expect(first.awaitFile(lasting: 2))
        #expect(first.request(#"{"command":["playlist-next"],"request_id":3}"#).contains(#""error":"error running command""#))
        #expect(first.request(#"{"command":["quit"]}"#).contains("success"))
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let opened = String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains(#""event":"open""#) }
        #expect(opened.count == 2)
        #expect(opened.first?.contains("video-only.mp4") == true && opened.last?.contains("odd-dims.mp4") == true)
    }
}
