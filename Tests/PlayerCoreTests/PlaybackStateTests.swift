import MediaTime
import Testing

@testable import PlayerCore

/// The playback state machine on its own, event by event, on a manual clock.
@Suite struct PlaybackStateTests {
    /// A state with both streams, opened and prerolled at 0, paused, at host time `time.now()`.
    static func prerolled(_ time: ManualTimeSource, rate: Double = 1) -> PlaybackState {
        var s = PlaybackState(hasVideo: true, hasAudio: true, rate: rate)
        _ = s.streamPrerolled(.video, serial: 0, position: 0, at: time.now())
        _ = s.streamPrerolled(.audio, serial: 0, at: time.now())
        return s
    }

    @Test func aSeekHoldsTheClockUntilEveryStreamIsPrerolled() {
        let time = ManualTimeSource(10)
        var s = Self.prerolled(time)
        var actions = s.play(at: time.now())
        #expect(actions == [.emit(.stateChanged(.playing))])
        time.advance(by: 1)
        actions = s.seekRequested(to: 3, accurate: true, at: time.now())
        #expect(actions == [.resumeWaiters(olderThan: 1)])
        #expect(s.serial == 1 && s.prerolling && s.awaitsFirstPicture)
        var request = s.seekTaken()
        #expect(request == PlaybackState.SeekRequest(serial: 1, position: 3, accurateTarget: 3))
        request = s.seekTaken()
        #expect(request == nil)
        time.advance(by: 1)
        #expect(s.clock.position(at: time.now()) == 3)  // held
        actions = s.streamPrerolled(.video, serial: 1, position: 3.04, at: time.now())
        #expect(actions.isEmpty)
        #expect(!s.awaitsFirstPicture && s.prerolling)
        actions = s.streamPrerolled(.audio, serial: 0, at: time.now())
        #expect(actions.isEmpty, "an older generation's preroll counts for nothing")
        actions = s.streamPrerolled(.audio, serial: 1, at: time.now())
        #expect(actions == [.resumeWaiters(olderThan: 2), .emit(.seekCompleted(position: 3))])
        #expect(!s.prerolling && s.isPrerollOver(serial: 1))
        // Accurate: the clock starts at the target, not at the picture, and runs from now.
        #expect(s.clock == MediaClock(position: 3, host: 12, rate: 1, paused: false))
    }

    @Test func aKeyframeSeekStartsTheClockFromThePicture() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.seekRequested(to: 2.5, accurate: false, at: time.now())
        #expect(s.accurateTarget == nil)
        _ = s.streamPrerolled(.video, serial: 1, position: 2.0, at: time.now())
        let actions = s.streamPrerolled(.audio, serial: 1, at: time.now())
        #expect(actions == [.resumeWaiters(olderThan: 2), .emit(.seekCompleted(position: 2))])
        #expect(s.clock == MediaClock(position: 2, host: 0, rate: 1, paused: true))
    }

    @Test func aScheduleStartsOnItsInstantOrWhereItShouldBeByNow() {
        let time = ManualTimeSource(100)
        var s = Self.prerolled(time)
        let actions = s.scheduled(position: 1, at: 101, now: time.now())
        #expect(actions == [.resumeWaiters(olderThan: 1), .emit(.stateChanged(.playing))])
        _ = s.streamPrerolled(.video, serial: 1, position: 1, at: time.now())
        _ = s.streamPrerolled(.audio, serial: 1, at: time.now())
        #expect(s.clock == MediaClock(position: 1, host: 101, rate: 1, paused: false))
        #expect(s.clock.position(at: 100.5) == 1)  // the picture holds until the instant
        // Prerolled too late: the clock is anchored on the instant all the same, so it is ahead.
        _ = s.scheduled(position: 1, at: 99.5, now: time.now())
        _ = s.streamPrerolled(.video, serial: 2, position: 1, at: time.now())
        _ = s.streamPrerolled(.audio, serial: 2, at: time.now())
        #expect(s.clock.position(at: time.now()) == 1.5)
    }

    /// Rate and correction are kept apart: the clock runs at their product, and either one
    /// changes without the other being divided back out.
    @Test func rateAndCorrectionCombineOnlyInTheClock() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: time.now())
        time.advance(by: 1)
        s.setRate(2, at: time.now())
        s.setCorrection(0.005, at: time.now())
        #expect(s.speed == PlaybackSpeed(rate: 2, correction: 0.005))
        #expect(abs(s.clock.rate - 2.01) < 1e-12)
        #expect(s.clock.position(at: 1) == 1)  // continuous across the change
        time.advance(by: 1)
        #expect(abs(s.clock.position(at: time.now()) - 3.01) < 1e-12)
        s.setCorrection(-0.005, at: time.now())
        #expect(s.speed.rate == 2)
        #expect(abs(s.clock.rate - 1.99) < 1e-12)
    }

    /// Switches wait for their instants at the rate asked: a correction made meanwhile applies to
    /// all of them, and the rate that takes over is the one asked, exactly.
    @Test func pendingSwitchesTakeTheCorrectionInForce() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: time.now())
        _ = s.switchClock(to: MediaClock(position: 5, host: 5, rate: 1.5, paused: false), at: time.now())
        _ = s.switchClock(to: MediaClock(position: 10, host: 8, rate: 0.75, paused: false), at: time.now())
        s.setCorrection(0.003, at: time.now())
        #expect(abs(s.clock.segment(at: 6).rate - 1.5 * 1.003) < 1e-12)
        #expect(abs(s.clock.segment(at: 9).rate - 0.75 * 1.003) < 1e-12)
        time.set(6)
        s.settle(at: time.now())
        #expect(s.speed == PlaybackSpeed(rate: 1.5, correction: 0.003))
        time.set(9)
        s.settle(at: time.now())
        #expect(s.speed == PlaybackSpeed(rate: 0.75, correction: 0.003))
        #expect(abs(s.clock.position(at: 9) - (10 + 0.75 * 1.003)) < 1e-12)
        #expect(s.clock.next == nil)
    }

    @Test func audioTakesAPendingRateFromItsMediaPosition() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: time.now())
        s.setCorrection(0.001, at: time.now())
        let actions = s.switchClock(to: MediaClock(position: 2, host: 2, rate: 2, paused: false), at: time.now())
        #expect(actions == [.emit(.stateChanged(.playing))])
        #expect(s.rateSwitchPosition == 2)
        #expect(s.speed(forMedia: 1.9) == PlaybackSpeed(rate: 1, correction: 0.001))
        #expect(s.speed(forMedia: 2) == PlaybackSpeed(rate: 2, correction: 0.001))
    }

    /// A switch that arrives while a seek prerolls (a party's new epoch): playback starts where the
    /// switch's clock is, not at the seek's position on the switch's instant.
    @Test func aClockSwitchDuringAPrerollStartsWhereTheSwitchsClockIs() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        let serial = s.serial + 1
        _ = s.scheduled(position: 10, at: 5, now: time.now())
        _ = s.switchClock(to: MediaClock(position: 10.5, host: 5, rate: 1, paused: false), at: time.now())
        time.advance(by: 1)
        _ = s.streamPrerolled(.video, serial: serial, position: 10, at: time.now())
        _ = s.streamPrerolled(.audio, serial: serial, at: time.now())
        #expect(!s.prerolling)
        #expect(abs(s.clock.position(at: 5) - 10.5) < 1e-12, "on the switch's clock at its instant")
        #expect(abs(s.clock.position(at: 4.5) - 10) < 1e-12, "the preroll's picture when that clock reaches it")
    }

    @Test func aSwitchWhoseInstantHasPassedAppliesAtOnce() {
        let time = ManualTimeSource(10)
        var s = Self.prerolled(time)
        _ = s.play(at: time.now())
        let actions = s.switchClock(to: MediaClock(position: 4, host: 9, rate: 1, paused: true), at: time.now())
        #expect(actions == [.emit(.stateChanged(.paused))])
        #expect(s.clock == MediaClock(position: 4, host: 9, rate: 1, paused: true))
        #expect(!s.wantsPlaying)
    }

    @Test func pauseDropsPendingSwitchesAndPlayResumesWhereItStopped() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: time.now())
        _ = s.switchClock(to: MediaClock(position: 3, host: 3, rate: 2, paused: false), at: time.now())
        time.advance(by: 1)
        let actions = s.pause(at: time.now())
        #expect(actions == [.emit(.stateChanged(.paused))])
        #expect(s.clock.next == nil && s.clock.isPaused)
        time.advance(by: 5)
        #expect(s.clock.position(at: time.now()) == 1)
        _ = s.play(at: time.now())
        time.advance(by: 1)
        #expect(s.clock.position(at: time.now()) == 2)
        #expect(s.speed.rate == 1)
    }

    @Test func playAtAnInstantHoldsThenRuns() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.playScheduled(at: 3, now: time.now())
        #expect(s.wantsPlaying)
        #expect(s.clock.position(at: 2.9) == 0)
        #expect(s.clock.position(at: 3.5) == 0.5)
    }

    @Test func eachStepShowsOnePictureAndMovesTheClockToIt() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: time.now())
        time.advance(by: 0.5)
        s.stepRequested(at: time.now())
        #expect(!s.wantsPlaying && s.clock.isPaused)
        var stepped = s.stepTaken(serial: 0, position: 0.52, at: time.now())
        #expect(stepped)
        #expect(s.clock.position(at: time.now() + 1) == 0.52)
        stepped = s.stepTaken(serial: 0, position: 0.56, at: time.now())
        #expect(!stepped, "one picture per step")
        s.stepRequested(at: time.now())
        _ = s.seekRequested(to: 1, accurate: true, at: time.now())
        stepped = s.stepTaken(serial: 1, position: 1, at: time.now())
        #expect(!stepped, "a seek cancels pending steps")
    }

    @Test func playbackEndsOnceWhenEveryStreamHas() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: time.now())
        s.audioProduced(serial: 0, samples: 480, end: 0.01)
        var actions = s.picturePresented(serial: 0, position: 0, duration: 0.04, at: 0)
        #expect(actions == [.emit(.firstFrame(position: 0, hostTime: 0)), .emit(.framePresented(position: 0, hostTime: 0))])
        actions = s.streamEnded(.video, serial: 0, at: time.now())
        #expect(actions.isEmpty)
        var stats = PlaybackStats()
        stats.videoFrames = 1
        stats.audioSamples = 480
        stats.endPosition = 0.04
        actions = s.streamEnded(.audio, serial: 0, at: time.now())
        #expect(actions == [.emit(.ended(stats))])
        #expect(s.ended)
        actions = s.streamEnded(.audio, serial: 0, at: time.now())
        #expect(actions.isEmpty)
    }

    @Test func aSeekPastTheEndCompletesItsPrerollByEnding() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.seekRequested(to: 99, accurate: true, at: time.now())
        var actions = s.streamEnded(.audio, serial: 1, at: time.now())
        #expect(actions.isEmpty)
        actions = s.streamEnded(.video, serial: 1, at: time.now())
        #expect(actions.prefix(2) == [.resumeWaiters(olderThan: 2), .emit(.seekCompleted(position: 99))])
        #expect(actions.count == 3 && s.ended && !s.prerolling)
    }

    @Test func onlyTheFirstPictureIsAnnouncedAndStaleOnesCountForNothing() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.picturePresented(serial: 0, position: 0, duration: 0.04, at: 0)
        let actions = s.picturePresented(serial: 0, position: 0.04, duration: 0.04, at: 0.04)
        #expect(actions == [.emit(.framePresented(position: 0.04, hostTime: 0.04))])
        _ = s.seekRequested(to: 1, accurate: true, at: time.now())
        _ = s.picturePresented(serial: 0, position: 0.08, duration: 0.04, at: 0.08)
        s.pictureDropped(serial: 0)
        s.audioProduced(serial: 0, samples: 100, end: 5)
        #expect(s.stats.videoFrames == 2 && s.stats.droppedFrames == 0 && s.stats.audioSamples == 0)
        #expect(s.stats.endPosition == 1)
        s.pictureDropped(serial: 1)
        #expect(s.stats.droppedFrames == 1)
    }

    @Test func whatIsHeardAnchorsTheClockOnlyWhilePlaying() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        s.audioHeard(serial: 0, position: 7, at: 1, now: 1)
        #expect(s.clock.position(at: 1) == 0, "paused: what is heard is silence")
        _ = s.play(at: time.now())
        s.audioHeard(serial: 0, position: 0.98, at: 1, now: 1)
        #expect(s.clock.position(at: 1) == 0.98)
        s.audioHeard(serial: 5, position: 3, at: 1, now: 1)
        #expect(s.clock.position(at: 1) == 0.98, "another generation's sound")
    }

    /// A device's callback at `now` fills what is heard a buffer later: the clock runs through
    /// that instant instead of holding until it (which made it move in buffer-sized steps).
    @Test func soundHeardAfterTheDeviceLatencyKeepsTheClockRunning() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: 0)
        let latency = 0.021
        s.audioHeard(serial: 0, position: 1.0, at: 1 + latency, now: 1)
        #expect(abs(s.clock.position(at: 1) - (1.0 - latency)) < 1e-12, "at the pull: a latency before what it fills")
        #expect(abs(s.clock.position(at: 1.01) - (1.01 - latency)) < 1e-12, "between the pull and the sound: running")
        #expect(abs(s.clock.position(at: 1 + latency) - 1.0) < 1e-12, "what is heard, when it is heard")
    }

    /// Sound pulled just before a scheduled resume is heard after it: it belongs to the resumed
    /// segment (which has its own anchor), never to the paused one.
    @Test func soundHeardAfterAScheduledResumeLeavesThePausedPositionAlone() {
        let time = ManualTimeSource(0)
        var s = Self.prerolled(time)
        _ = s.play(at: 0)
        _ = s.switchClock(to: MediaClock(position: 5, host: 1, rate: 1, paused: true), at: 0.5)
        _ = s.switchClock(to: MediaClock(position: 5, host: 2, rate: 1, paused: false), at: 1.5)
        s.audioHeard(serial: 0, position: 5.01, at: 2.01, now: 1.97)
        #expect(s.clock.position(at: 1.98) == 5, "still paused where it was paused")
        #expect(abs(s.clock.position(at: 2.5) - 5.5) < 1e-12, "the resume as scheduled")
    }

    @Test func closingReleasesEveryPrerollWaiter() {
        var s = PlaybackState(hasVideo: true, hasAudio: false, rate: 1)
        #expect(!s.isPrerollOver(serial: 0))
        var actions = s.closing()
        #expect(actions == [.resumeWaiters(olderThan: .max)])
        #expect(s.isPrerollOver(serial: 0))
        actions = s.warned("bad")
        #expect(actions == [.emit(.warning("bad"))])
        #expect(s.stats.warnings == 1)
    }
}
