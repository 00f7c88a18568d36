import Foundation
import PlayerCore
import TestSupport
import Testing

/// `PlayerOptions.timeOrigin` (a live party's origin): positions count from it on the stream's own
/// timestamps, and a position is sought on the same time line — the picture at origin + P is
/// ffmpeg's frame at that stream time.
@Suite struct TimeOriginTests {
    @Test func positionsAndSeeksCountFromTheOrigin() async throws {
        let folder = try TemporaryFolder("time-origin")
        defer { folder.remove() }
        // MPEG-TS segments: the stream's timestamps start at 1.4 s, not 0.
        let file = try await LiveHLS.makeVOD(in: folder, seconds: 4)
        let plain = try await Player.open(file, options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil))
        let start = plain.info.startSeconds
        #expect(plain.streamStart == start && start > 0)
        await plain.close()

        let originBefore = 10.0  // the party's origin lies 10 s before this input's start
        let sink = RecordingVideoSink()
        var options = PlayerOptions(videoSink: sink, audioSink: nil)
        options.timeOrigin = start - originBefore
        options.startPosition = originBefore + 2  // 2 s into the input
        let player = try await Player.open(file, options: options)
        #expect(player.streamStart == start - originBefore)
        try await waitUntil("the start's picture", within: 30) { !sink.records.isEmpty }
        let shown = try #require(sink.records.first)
        #expect(abs(shown.position - (originBefore + 2)) < 0.02, "\(shown.position)")
        let expected = try #require(try await TestMedia.ffmpegFrameMD5(file, start: 2, frames: 1).first)
        #expect(FrameHash(size: shown.size, md5: shown.md5) == expected)
        await player.close()
    }
}
