import Foundation
import PlayerCore
import TestSupport
import Testing

/// `PlayerOptions.startPosition`: the first picture is the start's (ffmpeg `-ss`'s frame), never one
/// before it; and the first picture's event reaches a subscriber that comes after it.
@Suite struct StartPositionTests {
    @Test func theFirstPictureIsTheStartsAndNothingBeforeItIsShown() async throws {
        let file = TestMedia.path("h264-aac.mp4")
        let target = 2.37
        let expected = try #require(try await TestMedia.ffmpegFrameMD5(file, start: target, frames: 1).first)
        let sink = RecordingVideoSink()
        var options = PlayerOptions(videoSink: sink, audioSink: NullAudioSink())
        options.startPosition = target
        let player = try await Player.open(file, options: options)
        try await waitUntil("the start's picture", within: 30) { !sink.records.isEmpty }
        let shown = try #require(sink.records.first)
        #expect(FrameHash(size: shown.size, md5: shown.md5) == expected)
        #expect(sink.records.allSatisfy { $0.position >= target - 0.05 }, "\(sink.records.map(\.position))")
        await player.close()
    }

    @Test func aLateSubscriberLearnsOfTheFirstPicture() async throws {
        let sink = RecordingVideoSink()
        var options = PlayerOptions(videoSink: sink, audioSink: NullAudioSink())
        options.startPosition = 1
        let player = try await Player.open(TestMedia.path("h264-aac.mp4"), options: options)
        try await waitUntil("the first picture", within: 30) { !sink.records.isEmpty }
        // Subscribed after the picture was shown: its event comes first all the same (closing ends
        // the stream, so without it the first event would be the close's).
        var events = player.events().makeAsyncIterator()
        await player.close()
        let first = await events.next()
        guard case .firstFrame(let position, _) = first else {
            Issue.record("first event: \(String(describing: first))")
            return
        }
        #expect(abs(position - 1) < 0.05)
    }
}
