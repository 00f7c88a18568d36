import Foundation
import PlayerCore
import Testing

/// "Be at P at host time T", on a manual clock: deterministic to the sample.
@Suite(.serialized) struct SchedulingTests {
    @Test func scheduledStartPresentsEachFrameOnItsInstant() async throws {
        let time = ObservedTimeSource(99)
        let sink = RecordingVideoSink(hashing: false)
        let player = try await Player.open(TestMedia.path("video-only.mp4"),
                                           options: PlayerOptions(videoSink: sink, audioSink: nil, timeSource: time))
        await player.schedule(position: 1.0, at: 100)
        // Prerolled: the target picture is up (covering the wait) and the clock is anchored on T.
        #expect(sink.records.last?.position == 1.0)
        #expect(player.clock == MediaClock(position: 1.0, host: 100, rate: 1, paused: false))
        let next = 1.0 + 1.0 / 30
        time.set(100 + 1.0 / 30 - 0.002)  // 2 ms early: not yet
        #expect(await time.presenterHasLooked())
        #expect(!sink.records.contains { $0.position > 1.0 })
        time.set(100 + 1.0 / 30)
        #expect(await sink.wait { $0.contains { abs($0.position - next) < 1e-6 } })
        let shown = try #require(sink.records.first { abs($0.position - next) < 1e-6 })
        #expect(shown.hostTime == 100 + 1.0 / 30)
        await player.close()
    }

    /// A sink that takes 10 ms to show a picture gets each one 10 ms before its instant: it is seen then.
    @Test func aSinksDrawingDelayPresentsThatMuchEarly() async throws {
        let time = ObservedTimeSource(99)
        let sink = RecordingVideoSink(hashing: false, presentationDelay: 0.01)
        let player = try await Player.open(TestMedia.path("video-only.mp4"),
                                           options: PlayerOptions(videoSink: sink, audioSink: nil, timeSource: time))
        await player.schedule(position: 1.0, at: 100)
        let next = 1.0 + 1.0 / 30
        time.set(100 + 1.0 / 30 - 0.012)  // 12 ms early: not yet
        #expect(await time.presenterHasLooked())
        #expect(!sink.records.contains { $0.position > 1.0 })
        time.set(100 + 1.0 / 30 - 0.01)
        #expect(await sink.wait { $0.contains { abs($0.position - next) < 1e-6 } })
        let shown = try #require(sink.records.first { abs($0.position - next) < 1e-6 })
        #expect(abs(shown.hostTime - (100 + 1.0 / 30 - 0.01)) < 1e-9)
        await player.close()
    }

    /// On a display whose refreshes the sink knows (60 Hz, a refresh 8 ms after the clock's start), the
    /// picture due at 100 + 1/30 is aimed at the refresh nearest it, 100.0413 (8.0 ms later; the one
    /// before is 8.7 ms earlier), and handed over the sink's 2 ms drawing and a quarter refresh before
    /// that refresh, not before its own instant.
    @Test func aPictureIsAimedAtTheRefreshNearestItsInstant() async throws {
        let time = ObservedTimeSource(99)
        let grid = RefreshGrid(period: 1.0 / 60, anchor: 100.008)
        let sink = RecordingVideoSink(hashing: false, presentationDelay: 0.002, refreshGrid: grid)
        let player = try await Player.open(TestMedia.path("video-only.mp4"),
                                           options: PlayerOptions(videoSink: sink, audioSink: nil, timeSource: time))
        await player.schedule(position: 1.0, at: 100)
        let next = 1.0 + 1.0 / 30
        let refresh = grid.nearest(to: 100 + 1.0 / 30)
        #expect(abs(refresh - (100.008 + 2.0 / 60)) < 1e-9)
        let handover = refresh - 0.002 - grid.period / 4
        time.set(handover - 0.001)  // past the picture's own instant less the drawing: not yet
        #expect(await time.presenterHasLooked())
        #expect(!sink.records.contains { $0.position > 1.0 })
        time.set(handover)
        #expect(await sink.wait { $0.contains { abs($0.position - next) < 1e-6 } })
        let shown = try #require(sink.records.first { abs($0.position - next) < 1e-6 })
        #expect(abs(shown.hostTime - handover) < 1e-9)
        await player.close()
    }

    @Test func lateScheduleCatchesUpInsteadOfStartingLate() async throws {
        let time = ManualTimeSource(200)
        let sink = RecordingVideoSink(hashing: false)
        let player = try await Player.open(TestMedia.path("video-only.mp4"),
                                           options: PlayerOptions(videoSink: sink, audioSink: nil, timeSource: time))
        // The command arrives 0.5 s after its instant: the clock is where it would have been.
        await player.schedule(position: 1.0, at: 199.5)
        #expect(abs(player.position - 1.5) < 1e-9)
        time.advance(by: 0.001)
        #expect(await sink.wait { $0.contains { $0.position >= 1.5 - 1e-6 } })
        await player.close()
    }

    @Test func audioStartsOnTheScheduledSample() async throws {
        let time = ManualTimeSource(10)
        let file = TestMedia.path("audio-only.m4a")  // 48 kHz mono
        let sink = ManualAudioSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, timeSource: time))
        await player.schedule(position: 1.0, at: 10.5)
        let rate = 48000
        let out = sink.pull(frames: rate)  // one second pulled at t = 10, of which 0.5 s precede T
        let lead = rate / 2
        #expect(out[0..<lead].allSatisfy { $0 == 0 })
        let reference = try await TestMedia.run("ffmpeg", ["-v", "quiet", "-i", file, "-f", "f32le", "-ac", "1", "-"])
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let heard = Array(out[lead..<lead + 2000])
        let expected = Array(reference[rate..<rate + 2000])
        #expect(heard.contains { $0 != 0 })
        // Same samples as a continuous decode, to float rounding of a decoder restarted by the seek (−80 dB).
        #expect(zip(heard, expected).allSatisfy { abs($0 - $1) < 1e-4 })
        // The clock is re-anchored from what was pulled: sample 24000 is heard at 10.5.
        #expect(abs(player.clock.position(at: 10.5) - 1.0) < 1e-9)
        await player.close()
    }

    /// A start whose instant passed while the player prerolled (a slow stream): the sound heard is
    /// the sound due by now, and the clock stays where it would be, not dragged back to the preroll.
    @Test func lateScheduleSkipsTheSoundAheadInsteadOfPullingTheClockBack() async throws {
        let time = ManualTimeSource(10)
        let file = TestMedia.path("audio-only.m4a")  // 48 kHz mono
        let sink = ManualAudioSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, timeSource: time))
        await player.schedule(position: 1.0, at: 9.96)  // 40 ms late: more than the gap played through
        let rate = 48000
        let out = sink.pull(frames: rate / 50)  // 20 ms pulled at t = 10
        #expect(abs(player.clock.position(at: 10) - 1.04) < 0.002, "the clock: where the start would be by now")
        let reference = try await TestMedia.run("ffmpeg", ["-v", "quiet", "-i", file, "-f", "f32le", "-ac", "1", "-"])
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // What is heard at 10 is the sound at 1.04 s, within the rounding of one sample.
        let at = Int(1.04 * Double(rate))
        let heard = Array(out[0..<200])
        let best = (at - 2...at + 2).map { offset in zip(heard, reference[offset..<offset + 200]).map { abs($0 - $1) }.max() ?? 1 }.min() ?? 1
        #expect(best < 1e-3, "heard the sound due at 1.04 s")
        await player.close()
    }

    /// A start closer than the device's queue (a streaming member's preroll took most of the lead):
    /// the queue is already silent past the instant, so the first sound is heard late. It is skipped
    /// ahead to meet the clock, not taken as the clock: that put streaming members 10–25 ms behind.
    @Test func aStartCloserThanTheDeviceQueueSkipsTheSoundToTheClock() async throws {
        let time = ManualTimeSource(10)
        let file = TestMedia.path("audio-only.m4a")  // 48 kHz mono
        let sink = ManualAudioSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, timeSource: time))
        await player.schedule(position: 1.0, at: 10.01)  // 10 ms ahead: prerolled in time
        let rate = 48000
        let out = sink.pull(frames: rate / 50, heardIn: 0.04)  // heard from 10.04: 30 ms past the instant
        #expect(abs(player.clock.position(at: 10.04) - 1.03) < 1e-4, "the clock stays on the instant")
        try await expectHeard(out, from: file, at: 1.03)
        await player.close()
    }

    /// A resume whose command arrived after its instant (a late packet on a jittery link): the sound
    /// after the pause is the sound due by now, and the clock stays where the instant puts it.
    @Test func aLateResumeSkipsTheSoundToTheClock() async throws {
        let time = ManualTimeSource(10)
        let file = TestMedia.path("audio-only.m4a")
        let sink = ManualAudioSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, timeSource: time))
        await player.seek(to: 1.0)
        _ = sink.pull(frames: 480)  // paused: silence
        time.set(20)
        player.play(at: 19.97)  // 30 ms late
        let out = sink.pull(frames: 48000 / 50)
        #expect(abs(player.clock.position(at: 20) - 1.03) < 1e-4, "the clock stays on the instant")
        try await expectHeard(out, from: file, at: 1.03)
        await player.close()
    }

    /// A plain play is not on an instant: the first sound heard is the clock (it waits for the sound).
    @Test func aPlainPlayAnchorsTheClockOnTheSound() async throws {
        let time = ManualTimeSource(10)
        let file = TestMedia.path("audio-only.m4a")
        let sink = ManualAudioSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, timeSource: time))
        await player.seek(to: 1.0)
        player.play()
        let out = sink.pull(frames: 48000 / 50, heardIn: 0.04)
        #expect(abs(player.clock.position(at: 10.04) - 1.0) < 1e-4, "the sound heard at 10.04 is the clock")
        try await expectHeard(out, from: file, at: 1.0)
        await player.close()
    }

    /// What `out` begins with is the file's sound at `position`, within the rounding of a few samples.
    private func expectHeard(_ out: [Float], from file: String, at position: Double,
                             sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let reference = try await TestMedia.run("ffmpeg", ["-v", "quiet", "-i", file, "-f", "f32le", "-ac", "1", "-"])
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let at = Int(position * 48000)
        let heard = Array(out[0..<200])
        #expect(heard.contains { $0 != 0 }, "sound, not silence", sourceLocation: sourceLocation)
        let best = (at - 2...at + 2).map { offset in zip(heard, reference[offset..<offset + 200]).map { abs($0 - $1) }.max() ?? 1 }.min() ?? 1
        #expect(best < 1e-3, "heard the sound due at \(position) s", sourceLocation: sourceLocation)
    }

    @Test func playAtResumesExactlyAtTheInstant() async throws {
        let time = ManualTimeSource(0)
        let sink = RecordingVideoSink(hashing: false)
        let player = try await Player.open(TestMedia.path("video-only.mp4"),
                                           options: PlayerOptions(videoSink: sink, audioSink: nil, timeSource: time))
        await player.seek(to: 0.5)
        player.play(at: 3)
        time.set(2.9)
        #expect(player.position == 0.5)  // held on the paused picture until the instant
        time.set(3 + 1.0 / 30)
        #expect(await sink.wait { $0.contains { abs($0.position - (0.5 + 1.0 / 30)) < 1e-6 } })
        await player.close()
    }
}
