import Foundation
import PlayerCore
import TestSupport
import Testing

/// A live playlist (made by ffmpeg in the test) opened at a party's moment: libavformat cannot seek
/// in it, so the player reads on from where it entered and shows the moment itself — also when the
/// moment is in the very first segment it read, which a failed seek call used to drop.
@Suite struct LiveStartTests {
    @Test func theMomentIsShownWhereverItIsAheadOfTheEntry() async throws {
        // Until the playlist holds 10 segments its window does not slide: entering at its first
        // segment ("live_start_index" 0) always enters at segment 0, whose start is the origin here.
        let live = try await LiveHLS.start(segments: 2)
        defer { live.stopNow() }
        let entry = ["live_start_index": "0"]
        var probeOptions = PlayerOptions(videoSink: NullVideoSink(), audioSink: nil)
        probeOptions.inputOptions = entry
        let probe = try await Player.open(live.playlistPath, options: probeOptions)
        let origin = probe.info.startSeconds
        await probe.close()
        // The moment: the entry itself and one in its first segment (which a failed seek call used to
        // drop), one in the next segment.
        for moment in [0.0, 0.52, 1.2] {
            let sink = RecordingVideoSink()
            var options = PlayerOptions(videoSink: sink, audioSink: nil)
            options.timeOrigin = origin
            options.inputOptions = entry
            options.startPosition = moment
            let player = try await Player.open(live.playlistPath, options: options)
            try await waitUntil("the first picture", within: 30) { !sink.records.isEmpty }
            let first = try #require(sink.records.first).position
            // A picture is 40 ms at 25 fps: the first at or after the moment.
            #expect(first >= moment - 0.001 && first < moment + 0.04,
                    "moment \(moment): first picture at \(first) (entered at \(player.info.startSeconds - origin), window from segment \(live.mediaSequence))")
            await player.close()
        }
    }
}
