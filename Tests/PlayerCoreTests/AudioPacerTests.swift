import Testing
@testable import PlayerCore

/// The device a headless player's pacing thread stands in for (no sound card).
struct AudioPacerTests {
    static let rate = 48_000

    @Test func aWakeOnTimeTopsTheQueueUpAndSaysWhenItIsHeard() {
        var pacer = AudioPacer(sampleRate: Self.rate, start: 100)
        var (frames, heardIn) = pacer.due(at: 100, capacity: 10_000)
        #expect(frames == Int(AudioPacer.ahead * Double(Self.rate)))
        #expect(heardIn == 0)
        pacer.deliver(frames)
        (frames, heardIn) = pacer.due(at: 100.01, capacity: 10_000)
        #expect(frames == 480, "10 ms later: 10 ms more")
        #expect(abs(heardIn - (AudioPacer.ahead - 0.01)) < 1e-9, "behind what is queued")
    }

    /// The case that moved party members' clocks: a wake late by less than the queue lasts changes
    /// nothing about when the sound is heard (before, it was taken as heard at the late wake-up).
    @Test func aLateWakeIsAbsorbedByTheQueue() {
        var pacer = AudioPacer(sampleRate: Self.rate, start: 0)
        pacer.deliver(pacer.due(at: 0, capacity: 10_000).frames)
        let late = 0.025  // due at 0.01, woken at 0.035
        let (frames, heardIn) = pacer.due(at: 0.01 + late, capacity: 10_000)
        #expect(abs((0.035 + heardIn) - AudioPacer.ahead) < 1e-9, "heard right after what was queued")
        #expect(frames == Int(0.035 * Double(Self.rate)))
        #expect(pacer.underruns == 0)
    }

    @Test func aWakeLaterThanTheQueueIsAnUnderrunAndPlaysOnFromThere() {
        var pacer = AudioPacer(sampleRate: Self.rate, start: 0)
        pacer.deliver(pacer.due(at: 0, capacity: 10_000).frames)
        let (frames, heardIn) = pacer.due(at: 0.5, capacity: 1_000)
        #expect(pacer.underruns == 1)
        #expect(heardIn == 0, "the queue ran dry: what comes now is heard now")
        #expect(frames == 1_000, "capped by the block")
    }
}
