import Foundation
import Testing
import TestSupport

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
}
