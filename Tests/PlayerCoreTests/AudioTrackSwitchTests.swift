import Foundation
import PlayerCore
import Testing

/// mpv's `#`: another audio track while playing, heard from where the clock is.
@Suite(.serialized) struct AudioTrackSwitchTests {
    /// Two sine tracks of different formats: 440 Hz mono at 48 kHz, 1000 Hz stereo at 44.1 kHz.
    static func twoTrackFile(in dir: URL) async throws -> String {
        let file = dir.appendingPathComponent("two-tracks.mka").path
        _ = try await TestMedia.run("ffmpeg", [
            "-v", "error", "-y",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
            "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=4",
            "-map", "0", "-map", "1", "-ac:a:1", "2", "-c:a", "aac",
            "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra", file,
        ])
        return file
    }

    /// Zero crossings per second of the sound in `samples` at `rate` (the silence of a pull that
    /// found the buffer short left out): twice the frequency of a sine.
    static func frequency(_ samples: [Float], rate: Int) -> Double {
        guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 }),
              last - first > rate / 50 else { return 0 }
        let sound = samples[first...last]
        let crossings = zip(sound, sound.dropFirst()).count { ($0 < 0) != ($1 < 0) }
        return Double(crossings) / 2 / (Double(sound.count) / Double(rate))
    }

    @Test func theNextTrackIsHeardFromTheClocksPosition() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-aid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try await Self.twoTrackFile(in: dir)
        let time = ManualTimeSource(10)
        let sink = ManualAudioSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, timeSource: time))
        #expect(player.audioTracks.map(\.id) == [1, 2])
        #expect(player.audioTrack == 1)
        let rate = 48000  // the output keeps the first track's format
        await player.schedule(position: 1.0, at: 10)
        let before = sink.pull(frames: rate / 10)
        #expect(abs(Self.frequency(before, rate: rate) - 440) < 15, "the first track is heard")

        time.advance(by: 0.1)
        let switchedAt = player.clock.position(at: time.now())
        try player.selectAudioTrack(2)
        #expect(player.audioTrack == 2)
        await player.waitUntilReady()
        #expect(player.state == .playing)
        #expect(abs(player.clock.position(at: time.now()) - switchedAt) < 0.002, "the clock goes on where it was")
        let after = sink.pull(frames: rate / 10)
        #expect(abs(Self.frequency(after, rate: rate) - 1000) < 30, "the second track is heard, resampled to the output")

        // And back (the cycle wraps), without a decoder of one track fed the other's packets.
        try player.selectAudioTrack(1)
        await player.waitUntilReady()
        let back = sink.pull(frames: rate / 10)
        #expect(abs(Self.frequency(back, rate: rate) - 440) < 15)
        #expect(player.stats.warnings == 0)
        await player.close()
    }

    @Test func anUnknownTrackIsAClearErrorAndTheCurrentOnePlaysOn() async throws {
        let player = try await Player.open(TestMedia.path("audio-only.m4a"),
                                           options: PlayerOptions(videoSink: nil, audioSink: ManualAudioSink(), timeSource: ManualTimeSource(0)))
        #expect(throws: TrackError(reason: "no audio track 5 (1 in \(TestMedia.path("audio-only.m4a")))")) { try player.selectAudioTrack(5) }
        #expect(player.audioTrack == 1)
        await player.close()

        let silent = try await Player.open(TestMedia.path("h264-aac.mp4"),
                                           options: PlayerOptions(videoSink: RecordingVideoSink(hashing: false), audioSink: nil,
                                                                  timeSource: ManualTimeSource(0)))
        #expect(throws: TrackError.self) { try silent.selectAudioTrack(1) }
        await silent.close()
    }
}
