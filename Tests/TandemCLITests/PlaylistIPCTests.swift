import Foundation
import Testing
import TestSupport

/// `playlist-next` / `playlist-prev` over mpv IPC on a headless `tandem play A B` (the built binary).
@Suite struct PlaylistIPCTests {
    /// Asks `client` for `duration` until it is `seconds` (the file of that length plays): true when
    /// it is, false when the connection closed or it never came (the socket is up before the first
    /// file; between files the property is unavailable).
    static func awaitFile(lasting seconds: Int, _ client: SocketClient) async throws -> Bool {
        var closed = false
        let playing = try await eventually(within: 30) {
            let reply = try await client.request(#"{"command":["get_property","duration"]}"#)
            closed = reply.isEmpty
            return closed || reply.contains("\"data\":\(seconds),")
        }
        return playing && !closed
    }

    @Test func playlistNextMovesOnAndTheEndsRefuse() async throws {
        let socketPath = temporarySocketPath("pl")
        // Each file loops: only playlist-next leaves the first, only quit ends the second.
        let process = try ChildProcess.tandem(["play", "--headless", "--json", "--loop-file", "--ipc", socketPath,
                                               Repository.asset("video-only.mp4"), Repository.asset("odd-dims.mp4")], standardError: .discard)
        let first = try await SocketClient.connect(path: socketPath)
        #expect(try await Self.awaitFile(lasting: 3, first))
        #expect(try await first.request(#"{"command":["playlist-prev"],"request_id":1}"#).contains(#""error":"error running command""#))
        #expect(try await first.request(#"{"command":["playlist-next"],"request_id":2}"#).contains(#""error":"success""#))
        // The same connection, as mpv keeps its socket from file to file: once the second file
        // plays (its duration, 2 s, answers), there is nothing after it.
        #expect(try await Self.awaitFile(lasting: 2, first))
        #expect(try await first.request(#"{"command":["playlist-next"],"request_id":3}"#).contains(#""error":"error running command""#))
        #expect(try await first.request(#"{"command":["quit"]}"#).contains("success"))
        #expect(try await process.exit(within: 60) == .exited(0))
        let opened = process.standardOutput.split(separator: "\n").filter { $0.contains(#""event":"open""#) }
        #expect(opened.count == 2)
        #expect(opened.first?.contains("video-only.mp4") == true && opened.last?.contains("odd-dims.mp4") == true)
    }
}
