import Foundation
import PlayerCore
import Testing

@Suite(.serialized) struct PlayerTests {
    @Test func twoPlayersInOneProcessAreIndependent() async throws {
        let a = RecordingVideoSink(hashing: false), b = RecordingVideoSink(hashing: false)
        let pa = try await Player.open(TestMedia.path("h264-aac.mp4"), options: PlayerOptions(videoSink: a))
        // A long clip for b, so it is still playing when checked on a loaded machine.
        let pb = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: b))
        pa.play()
        pb.play()
        #expect(await a.wait { $0.count >= 3 })
        pa.pause()
        await pb.seek(to: 20.0)
        let held = pa.position
        #expect(await b.wait { $0.contains { $0.position > 20.1 } })
        #expect(pa.position == held)  // the other's seek and play left this one alone
        #expect(pa.state == .paused && pb.state == .playing)
        await pa.close()
        #expect(await b.wait { $0.contains { $0.position > 20.3 } })  // and its close too
        await pb.close()
    }

    @Test func rateChangesTheClockAndKeepsPlaying() async throws {
        let time = ManualTimeSource(0)
        let player = try await Player.open(TestMedia.path("video-only.mp4"),
                                           options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil, timeSource: time))
        await player.seek(to: 0)
        player.play()
        time.advance(by: 0.5)
        player.setRate(2)
        time.advance(by: 0.5)
        #expect(abs(player.position - 1.5) < 1e-9)
        player.setRate(10)  // clamped
        #expect(player.rate == Player.rateRange.upperBound)
        player.setCorrection(0.02)  // clamped to ±0.5 %
        #expect(player.correction == Player.maxCorrection)
        await player.close()
    }

    /// Pitch-preserving tempo: a file played at `rate` yields duration / rate of sound.
    @Test(arguments: [0.25, 0.5, 1.5, 2.0, 4.0])
    func tempoChangesTheAmountOfSoundNotThePitch(rate: Double) async throws {
        let file = TestMedia.path("audio-only.m4a")
        let reference = try await TestMedia.ffmpegAudioSamples(file)
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-rate-\(rate)-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let player = try await Player.open(file, options: PlayerOptions(
            videoSink: nil, audioSink: try WAVAudioSink(path: wav, realTime: false), fast: true, rate: rate))
        player.play()
        await player.waitUntilEnded()
        await player.close()
        let samples = (try Data(contentsOf: URL(fileURLWithPath: wav)).count - 44) / 2
        let expected = Double(reference) / rate
        #expect(abs(Double(samples) - expected) / expected < 0.02, "\(samples) samples at \(rate)x, expected \(expected)")
    }

    /// Small corrections remove or add samples (swr compensation), within ±0.5 %.
    @Test(arguments: [0.005, -0.005, 0.001])
    func correctionResamplesByTheFraction(fraction: Double) async throws {
        let file = TestMedia.path("audio-only.m4a")
        let reference = try await TestMedia.ffmpegAudioSamples(file)
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-corr-\(fraction)-\(getpid()).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let player = try await Player.open(file, options: PlayerOptions(
            videoSink: nil, audioSink: try WAVAudioSink(path: wav, realTime: false), fast: true))
        player.setCorrection(fraction)
        // Made again from the start with the correction in force (opening already decoded some).
        await player.seek(to: 0)
        player.play()
        await player.waitUntilEnded()
        await player.close()
        let samples = Double((try Data(contentsOf: URL(fileURLWithPath: wav)).count - 44) / 2)
        let expected = Double(reference) / (1 + fraction)
        // One frame of slack: the last frame's share of the correction may still be pending.
        #expect(abs(samples - expected) < 1100, "\(samples) vs \(expected)")
        #expect((samples < Double(reference)) == (fraction > 0))
    }

    @Test func stopPositionEndsPlaybackThere() async throws {
        let sink = RecordingVideoSink(hashing: false)
        let player = try await Player.open(TestMedia.path("h264-aac.mp4"),
                                           options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink(realTime: false), fast: true))
        player.setStopPosition(2.0)
        player.play()
        await player.waitUntilEnded()
        await player.close()
        #expect(sink.records.count == 50)
        #expect(player.stats.audioSamples == 88200)
        #expect(player.state == .closed)
    }

    @Test func closeIsIdempotentAndEndsTheEventStream() async throws {
        let player = try await Player.open(TestMedia.path("h264-aac.mp4"))
        let events = player.events()
        player.play()
        await player.close()
        await player.close()
        var sawClosed = false
        for await event in events { if case .stateChanged(.closed) = event { sawClosed = true } }
        #expect(sawClosed)
    }
}
