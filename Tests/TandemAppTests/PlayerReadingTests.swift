import MPVIPC
import MediaTime
import PlayerCore
import Testing
import TestSupport
@testable import TandemApp

/// The IPC `pause` property reports what the player is doing, on the command's instant.
@Suite struct PlayerReadingTests {
    private func reading(_ clock: MediaClock, state: PlayerState, prerolling: Bool = false, at now: Double) -> PlayerReading {
        PlayerReading(state: state, prerolling: prerolling, clock: clock, rate: 1, duration: 60, now: now)
    }

    @Test func aScheduledPauseIsReportedOnItsInstant() {
        // Playing from 0 at host 100; "pause at 105" taken at 101: the player says paused at once, the clock runs to 105.
        var clock = MediaClock(position: 0, host: 100, rate: 1, paused: false)
        clock.next = MediaClock(position: 5, host: 105, rate: 1, paused: true)
        #expect(!reading(clock, state: .paused, at: 101).isPaused)
        #expect(reading(clock, state: .paused, at: 101).untilScheduledChange == 4)
        #expect(!reading(clock, state: .paused, at: 104.999).isPaused)
        #expect(reading(clock, state: .paused, at: 105).isPaused)
        #expect(reading(clock, state: .paused, at: 105).untilScheduledChange == nil)
    }

    @Test func aScheduledResumeIsReportedOnItsInstant() {
        var clock = MediaClock(position: 5, host: 90, rate: 1, paused: true)
        clock.next = MediaClock(position: 5, host: 110, rate: 1, paused: false)
        #expect(reading(clock, state: .playing, at: 109.9).isPaused)
        #expect(!reading(clock, state: .playing, at: 110).isPaused)
    }

    @Test func aSeekIsNotAPause() {
        // Prerolling for "play from 30 at 200": playing, as mpv keeps pause=no while seeking.
        let held = MediaClock(position: 30, host: 150, rate: 1, paused: true)
        #expect(!reading(held, state: .playing, prerolling: true, at: 150).isPaused)
        #expect(reading(held, state: .paused, prerolling: true, at: 150).isPaused)
        // Prerolled, the picture held until the instant: still playing.
        let anchored = MediaClock(position: 30, host: 200, rate: 1, paused: false)
        #expect(!reading(anchored, state: .playing, at: 199).isPaused)
    }

    @Test func theEndAndClosedArePaused() {
        let running = MediaClock(position: 0, host: 0, rate: 1, paused: false)
        #expect(reading(running, state: .ended, at: 1).isPaused)
        #expect(reading(running, state: .closed, at: 1).isPaused)
    }

    @Test func thePollerWakesOnTheInstant() {
        let soon = PropertyPoller.Reading(paused: false, speed: 1, duration: nil, untilScheduledChange: 0.03)
        #expect(PropertyPoller.wait(after: soon) == 0.03)
        let far = PropertyPoller.Reading(paused: false, speed: 1, duration: nil, untilScheduledChange: 5)
        #expect(PropertyPoller.wait(after: far) == PropertyPoller.interval)
        let none = PropertyPoller.Reading(paused: false, speed: 1, duration: nil, untilScheduledChange: nil)
        #expect(PropertyPoller.wait(after: none) == PropertyPoller.interval)
        let now = PropertyPoller.Reading(paused: false, speed: 1, duration: nil, untilScheduledChange: 0)
        #expect(PropertyPoller.wait(after: now) == PropertyPoller.minimumWait)
    }

    @Test func noPlayerYetIsPaused() {
        let reading = PropertyPoller.Reading(nil)
        #expect(reading.paused && reading.speed == 1 && reading.duration == nil)
    }

    @Test func watchReportsOnlyChanges() {
        var watch = IPCPropertyWatch()
        #expect(watch.observed(paused: true, speed: 1, duration: nil)
            == [IPCPropertyChange(.pause, .bool(true)), IPCPropertyChange(.speed, .double(1)), IPCPropertyChange(.duration, nil)])
        #expect(watch.observed(paused: true, speed: 1, duration: nil).isEmpty)
        #expect(watch.observed(paused: false, speed: 1, duration: 60)
            == [IPCPropertyChange(.pause, .bool(false)), IPCPropertyChange(.duration, .double(60))])
        #expect(watch.observed(paused: false, speed: 1.25, duration: 60) == [IPCPropertyChange(.speed, .double(1.25))])
    }
}

/// The same through a real player on a manual clock, read by ``PlayerIPCTarget``.
@Suite(.serialized) struct PlayerIPCTargetPauseTests {
    @Test func pauseFlipsOnTheSwitchInstantNotWhenTheSwitchIsTaken() async throws {
        let time = ManualTimeSource(100)
        let player = try await Player.open(Repository.asset("video-only.mp4"),
                                           options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil, timeSource: time))
        await player.waitUntilReady()
        let target = PlayerIPCTarget(player: player, onQuit: {})
        #expect(await target.property(.pause) == .bool(true))  // opened: paused on the first picture
        player.play()
        #expect(await target.property(.pause) == .bool(false))

        // A party member takes "pause at 103" at 101.
        time.set(101)
        player.switchClock(to: MediaClock(position: 3, host: 103, rate: 1, paused: true))
        #expect(player.state == .paused)  // what it was asked
        #expect(await target.property(.pause) == .bool(false))  // what it does: still playing
        time.set(102.999)
        #expect(await target.property(.pause) == .bool(false))
        time.set(103)
        #expect(await target.property(.pause) == .bool(true))

        // "Play at 110", taken at 104.
        time.set(104)
        player.switchClock(to: MediaClock(position: 3, host: 110, rate: 1, paused: false))
        #expect(await target.property(.pause) == .bool(true))
        time.set(110)
        #expect(await target.property(.pause) == .bool(false))
        await player.close()
        #expect(await target.property(.pause) == .bool(true))
    }
}

extension PlayerReadingTests {
    /// `paused-for-cache` is reported when a stream runs dry and when it has refilled, not before.
    @Test func pausedForCacheIsReportedWhenItChanges() {
        var watch = IPCPropertyWatch()
        #expect(!watch.observed(paused: false, speed: 1, duration: 60).contains { $0.property == .pausedForCache })
        #expect(watch.observed(paused: false, speed: 1, duration: 60, pausedForCache: true)
            == [IPCPropertyChange(.pausedForCache, .bool(true))])
        #expect(watch.observed(paused: false, speed: 1, duration: 60, pausedForCache: true).isEmpty)
        #expect(watch.observed(paused: false, speed: 1, duration: 60, pausedForCache: false)
            == [IPCPropertyChange(.pausedForCache, .bool(false))])
    }
}
