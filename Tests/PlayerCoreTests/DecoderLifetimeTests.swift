import FFmpegKit
import Foundation
import PlayerCore
import Testing

/// Every decoder has one owner that frees it: an audio track switch lets the old track's decoder
/// go while the player plays on (``Decoder/liveCount`` counts those open in the process).
///
/// The count is the whole process's, and the suite runs in parallel with other tests that open
/// players: the test runs in a process of its own (an exit test), where no other decoder comes or goes.
@Suite struct DecoderLifetimeTests {
    @Test func anAudioTrackSwitchFreesTheOldDecoder() async {
        await #expect(processExitsWith: .success) {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-decoders-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = try await AudioTrackSwitchTests.twoTrackFile(in: dir)
            let time = ManualTimeSource(10)
            let sink = ManualAudioSink()
            let beforeOpen = Decoder.liveCount
            let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, timeSource: time))
            await player.schedule(position: 1.0, at: 10)
            let playing = Decoder.liveCount
            #expect(playing == beforeOpen + 1, "one audio decoder, no video")

            try player.selectAudioTrack(2)
            await player.waitUntilReady()
            #expect(player.audioTrack == 2)
            #expect(Decoder.liveCount == playing, "track 1's decoder was freed once track 2's took over")

            // Two quick presses: whether the decoder thread meets both switches or skips the first, no decoder is kept.
            try player.selectAudioTrack(1)
            try player.selectAudioTrack(2)
            await player.waitUntilReady()
            #expect(Decoder.liveCount == playing, "neither the skipped nor the replaced decoder is kept")
            #expect(player.stats.warnings == 0)
            await player.close()
            #expect(Decoder.liveCount == beforeOpen, "closing frees the last one")
        }
    }
}
