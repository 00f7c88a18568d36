@testable import FFmpegKit
import Testing
import TestSupport

/// Which inputs are live: the rule on its own, and on a real live HLS made by ffmpeg in the test
/// against a finished (VOD) one.
@Suite struct LiveInputTests {
    @Test func aLivePlaylistIsLiveAndAFinishedOneIsNot() async throws {
        let live = try await LiveHLS.start(segments: 3)
        defer { live.stopNow() }
        let input = try InputFile(url: live.playlistPath)
        #expect(input.isLive)
        #expect(input.info().live && input.info().durationSeconds == nil)

        let folder = try TemporaryFolder("vod-hls")
        defer { folder.remove() }
        let vod = try InputFile(url: try await LiveHLS.makeVOD(in: folder))
        #expect(!vod.isLive)
        #expect(!vod.info().live && (vod.info().durationSeconds ?? 0) > 2)
    }

    @Test func theRule() {
        // Live protocols are live whatever libavformat says of them.
        for scheme in ["rtmp", "rtsp", "srt", "udp"] {
            #expect(LiveRule.isLive(scheme: scheme, format: "flv", durationKnown: false, byteStreamSeekable: false), "\(scheme)")
        }
        // A playlist is live only without a duration.
        #expect(LiveRule.isLive(scheme: "https", format: "hls", durationKnown: false, byteStreamSeekable: true))
        #expect(!LiveRule.isLive(scheme: "https", format: "hls", durationKnown: true, byteStreamSeekable: true))
        #expect(LiveRule.isLive(scheme: "http", format: "dash", durationKnown: false, byteStreamSeekable: nil))
        // An endless HTTP stream: no byte ranges and no duration.
        #expect(LiveRule.isLive(scheme: "http", format: "mp3", durationKnown: false, byteStreamSeekable: false))
        #expect(!LiveRule.isLive(scheme: "http", format: "mp3", durationKnown: true, byteStreamSeekable: false))
        #expect(!LiveRule.isLive(scheme: "http", format: "mov,mp4,m4a,3gp,3g2,mj2", durationKnown: false, byteStreamSeekable: true))
        // Local files never are.
        #expect(!LiveRule.isLive(scheme: nil, format: "mpegts", durationKnown: false, byteStreamSeekable: false))
        #expect(LiveRule.scheme(of: "RTMP://h/a") == "rtmp" && LiveRule.scheme(of: "/a.mp4") == nil)
    }
}
