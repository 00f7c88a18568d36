import Foundation
import Testing
import TestSupport
import TestSupportHTTP

/// `tandem probe` says whether an input is live: a live HLS made by ffmpeg in the test, against a
/// finished one.
@Suite struct LiveProbeTests {
    @Test func probeSaysLiveForALivePlaylistOnly() async throws {
        let live = try await LiveHLS.start(segments: 3)
        defer { live.stopNow() }
        let folder = try TemporaryFolder("probe-vod")
        defer { folder.remove() }
        let vod = try await LiveHLS.makeVOD(in: folder)
        for (path, expected) in [(live.playlistPath, true), (vod, false)] {
            let result = try await ChildProcess.runTandem(["probe", path])
            #expect(result.termination == .exited(0), "\(result.standardError)")
            let object = try #require((try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))) as? [String: Any])
            #expect(object["live"] as? Bool == expected, "\(path): \(result.standardOutput)")
        }
    }

    /// A live stream over plain HTTP (MPEG-TS from ffmpeg, served without a length or byte ranges as
    /// it is made): `probe` says it is live (it said "the server does not support byte ranges"), and
    /// `host` says plainly why it cannot be a party item yet instead of that.
    @Test func anEndlessHTTPStreamIsLiveAndSaidToBeNoPartyItem() async throws {
        let folder = try TemporaryFolder("endless")
        defer { folder.remove() }
        let ffmpeg = try ChildProcess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25",
                                                 "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-f", "mpegts", folder.path("live.ts")],
                                      standardOutput: .discard)
        defer { ffmpeg.kill() }
        try await waitUntil("ffmpeg's first second of the stream", within: 30, every: .milliseconds(100)) {
            ((try? FileManager.default.attributesOfItem(atPath: folder.path("live.ts"))[.size]) as? Int ?? 0) > 20_000
        }
        let server = try await StaticFileServer.start(root: folder.path, mode: .endless)
        defer { Task { await server.stop() } }
        let url = server.url("live.ts")
        let probe = try await ChildProcess.runTandem(["probe", url], within: 60)
        #expect(probe.termination == .exited(0), "\(probe.standardError)")
        let object = try #require((try? JSONSerialization.jsonObject(with: Data(probe.standardOutput.utf8))) as? [String: Any], "\(probe.standardOutput)")
        #expect(object["live"] as? Bool == true, "\(probe.standardOutput)")
        let host = try await ChildProcess.runTandem(["host", "--headless", "--listen", "127.0.0.1:0", "--duration", "1", url], within: 60)
        #expect(host.status == 1)
        #expect(host.standardError == "tandem: \(url): a live stream over plain http(s) cannot be a party item yet "
            + "(a member joining later could not go back to the party's moment): use its HLS or DASH playlist\n", "\(host.standardError)")
    }
}
