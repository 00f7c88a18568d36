import MediaTime
import Testing
@testable import PartyKit

@Suite struct ParticipantCoreTests {
    private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
        a.map { abs($0 - b) <= tolerance } ?? false
    }

    /// A member synced on a paused timeline (epoch 1 at position 0), its seek completed.
    private func synced(host: Bool = false) throws -> MemberHarness {
        let h = host ? MemberHarness.host() : MemberHarness.participant()
        let seek = try #require(h.join(timeline: Timeline(epoch: 1, partyTime: h.party(0), playing: false),
                                       you: host ? Fixtures.alice : Fixtures.bob))
        #expect(seek.epoch == 1)
        #expect(h.core.isSynced)
        return h
    }

    // MARK: Joining

    @Test func startSaysHello() {
        let hello = Hello(party: "p", key: "k", name: "Bob", resume: nil)
        let h = MemberHarness(hello: hello)
        #expect(h.start() == [.send(.hello(hello))])
        #expect(!h.core.isJoined)
        #expect(!h.core.isSynced)
        // Nothing to do before the welcome.
        #expect(h.tick(position: 0).isEmpty)
        #expect(h.core.nextWake(after: 5) == 6)
    }

    @Test func welcomeIsNoticedAndStartsTheBurst() throws {
        let h = MemberHarness.participant()
        h.start()
        let line = ChatMessage(from: "Alice", text: "hi", time: 3)
        let welcome = h.welcome(timeline: Timeline(epoch: 4, partyTime: h.party(0)), chat: [line])
        let out = h.receive(.welcome(welcome))
        #expect(out == [.notice(.joined(welcome)), .notice(.chat(line)), .send(.timePing(TimePing(id: 1, t0: 0)))])
        #expect(h.core.isJoined)
        #expect(!h.core.isSynced)
        #expect(h.core.me == Fixtures.bob)
        #expect(h.core.token == "tok-1")
        #expect(h.core.participants == [Fixtures.alice, Fixtures.bob])
        #expect(h.core.timeline?.epoch == 4)
        #expect(h.core.config == welcome.config)
        #expect(h.core.appliedEpoch == 0)
    }

    @Test func nextWakeIsTheEarliestPendingChore() {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        // Never checked nor reported yet: due at once.
        #expect(h.core.nextWake(after: 0) <= 0)
        h.set(now: 0.005)
        h.tick()
        // Then the next ping of the burst comes first, before the next check and status.
        #expect(abs(h.core.nextWake(after: 0.005) - ClockSync.burstInterval) < 1e-9)
        h.set(now: 0.03)
        h.tick()
        #expect(abs(h.core.nextWake(after: 0.03) - (0.03 + ClockSync.burstInterval)) < 1e-9)
    }

    @Test func burstPacingThenSteady() throws {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        h.advance(to: 2)
        let times = h.pingTimes
        #expect(times.count > ClockSync.burstCount + 2)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        // Back to back until `burstCount` answers are in (at least burstCount − 1 quick gaps)…
        let quick = gaps.prefix { near($0, ClockSync.burstInterval, 0.0051) }.count
        #expect(quick >= ClockSync.burstCount - 1)
        // …then one every steady interval until the offset has converged (on this quiet link, within
        // the two seconds), then one every drift-feeding interval (``PingPacer``: the drift is not fitted yet).
        let steady = gaps.dropFirst(quick).prefix { near($0, ClockSync.steadyInterval, 0.0051) }.count
        #expect(steady >= PingPacer.calmExchangesToConverge - 1)
        for gap in gaps.dropFirst(quick + steady) { #expect(near(gap, PingPacer.driftFeedInterval, 0.0051)) }
        #expect(Set(h.sent.compactMap { if case .timePing(let p) = $0.message { p.id } else { nil } }).count == times.count)
    }

    /// Round trips of two seconds (a loaded server): after the burst, about two pings a round trip,
    /// not ten a second that pile onto the server's backlog. Answers still come, so sync goes on.
    @Test func slowAnswersSlowThePings() throws {
        let h = MemberHarness(hello: Hello(party: "brave-otter-42", key: "s3cret", name: "Bob"), oneWay: 1.0)
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        h.advance(to: 20, step: 0.01)
        #expect(!h.core.clockSync.isBursting)
        let late = h.pingTimes.filter { $0 >= 10 }
        // 10 s at two in flight per 2 s round trip: 10 pings, give or take the pace's steps.
        #expect(late.count <= 12, "\(late.count) pings in the last 10 s")
        #expect(late.count >= 8, "\(late.count) pings in the last 10 s: the pings must go on")
    }

    /// A server that does not answer at all (stalled, overloaded) from the join on: the burst stops at
    /// `burstCount` unanswered pings and waits for answers, retrying as they time out, instead of
    /// going on at the steady pace for as long as the server is silent.
    @Test func aSilentServerGetsNoMoreThanABurstPerTimeout() throws {
        let h = MemberHarness.participant()
        h.answerPings = false
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        h.advance(to: 2 * ClockSync.pingAnswerTimeout - 1, step: 0.01)
        #expect(h.core.clockSync.isBursting)
        #expect(h.pingTimes.count == 2 * ClockSync.burstCount, "\(h.pingTimes.count) pings in \(h.now) s")
    }

    /// Unanswered pings are given up after ``ClockSync/pingAnswerTimeout``, so lost answers never
    /// stop the pings for good.
    @Test func lostAnswersDoNotStopThePings() throws {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        h.advance(to: 2)
        h.answerPings = false
        h.advance(to: 2 + 3 * ClockSync.pingAnswerTimeout, step: 0.05)
        let unanswered = h.pingTimes.filter { $0 > 2 }
        #expect(unanswered.count >= 3 * ClockSync.maxPingsInFlight - 1, "\(unanswered.count) pings")
        #expect(unanswered.count <= 3 * ClockSync.maxPingsInFlight + 2, "\(unanswered.count) pings")
    }

    @Test func timelineWaitsForTheBurstThenSeeks() throws {
        let h = MemberHarness.participant()
        h.start()
        // Playing: at local 0 the party is at 10 s of item 1.
        let timeline = Timeline(epoch: 5, item: 1, position: 10, partyTime: h.party(0), rate: 1, playing: true, jump: false)
        h.receive(.welcome(h.welcome(timeline: timeline)))
        var seekTime: Double?
        var seek: MemberHarness.Seek?
        while seek == nil, h.now < 2 {
            let out = h.advance(to: h.now + 0.005)
            if let s = out.seeks.first { seek = s; seekTime = h.now }
            if seek == nil { #expect(h.core.clockSync.isBursting || h.core.clockSync.estimate == nil) }
        }
        let s = try #require(seek)
        let now = try #require(seekTime)
        #expect(h.core.clockSync.samples.count == ClockSync.burstCount)
        // The instant is past: land a little ahead, where the timeline will be then.
        #expect(near(s.at, now + ParticipantCore.seekLead))
        #expect(near(s.position, 10 + s.at, 1e-6))
        #expect(s.item == 1)
        #expect(s.playing)
        #expect(s.rate == 1)
        #expect(s.epoch == 5)
        #expect(s.catchUp)
        #expect(h.core.appliedEpoch == 5)
        #expect(!h.core.isSynced)
        // Estimated party clock is the real one.
        #expect(near(h.core.partyTime(local: 3), h.party(3), 1e-6))
        // Done when the player says so.
        #expect(h.seekCompleted(epoch: 4).isEmpty)
        #expect(!h.core.isSynced)
        #expect(h.seekCompleted(epoch: 5).isEmpty)
        #expect(h.core.isSynced)
    }

    @Test func firstTimelineWithAnInstantAheadLandsOnIt() throws {
        let h = MemberHarness.participant()
        // The join lands on a command already scheduled two seconds out.
        let seek = try #require(h.join(timeline: Timeline(epoch: 2, position: 30, partyTime: h.party(2), playing: true, jump: false),
                                       completeSeek: false))
        #expect(near(seek.at, 2))
        #expect(seek.position == 30)
        #expect(seek.catchUp)
    }

    // MARK: Following epochs

    @Test func playPauseAndRateSwitchTheClockAtTheInstant() throws {
        let h = try synced()
        h.advance(to: 1)
        let play = Timeline(epoch: 2, position: 0, partyTime: h.party(1.16), playing: true, jump: false, reason: "Alice: play")
        let out = h.receive(.timeline(play))
        #expect(out.first == .notice(.timeline(play, reason: "Alice: play")))
        let switched = try #require(out.clockSwitches.first)
        #expect(switched.epoch == 2)
        #expect(near(switched.clock.anchorHost, 1.16))
        #expect(switched.clock.anchorPosition == 0)
        #expect(!switched.clock.isPaused)
        #expect(switched.clock.rate == 1)
        #expect(out.seeks.isEmpty)
        #expect(h.core.appliedEpoch == 2)

        let rate = Timeline(epoch: 3, position: 1.5, partyTime: h.party(2.66), rate: 1.25, playing: true, jump: false)
        let r = try #require(h.receive(.timeline(rate)).clockSwitches.first)
        #expect(r.clock.rate == 1.25)
        #expect(r.clock.anchorPosition == 1.5)
        #expect(near(r.clock.anchorHost, 2.66))

        let pause = Timeline(epoch: 4, position: 5, partyTime: h.party(5.5), rate: 1.25, playing: false, jump: false)
        let p = try #require(h.receive(.timeline(pause)).clockSwitches.first)
        #expect(p.clock.isPaused)
        #expect(p.epoch == 4)
    }

    @Test func staleEpochsAreIgnored() throws {
        let h = try synced()
        let t = Timeline(epoch: 3, position: 0, partyTime: h.party(1), playing: true, jump: false, reason: "Alice: play")
        #expect(!h.receive(.timeline(t)).isEmpty)
        #expect(h.receive(.timeline(t)).isEmpty)
        var older = t
        older.epoch = 2
        older.position = 99
        older.jump = true
        #expect(h.receive(.timeline(older)).isEmpty)
        #expect(h.core.timeline == t)
        #expect(h.core.appliedEpoch == 3)
    }

    @Test func jumpSeeksToLandOnTheSharedInstant() throws {
        let h = try synced()
        h.advance(to: 1)
        let seek = Timeline(epoch: 2, position: 42, partyTime: h.party(1.35), playing: true, jump: true)
        let s = try #require(h.receive(.timeline(seek)).seeks.first)
        #expect(near(s.at, 1.35))
        #expect(s.position == 42)
        #expect(!s.catchUp)
        #expect(s.epoch == 2)
        #expect(h.receive(.timeline(seek)).isEmpty)
        #expect(!h.core.isSynced)
        h.seekCompleted(epoch: 2)
        #expect(h.core.isSynced)
    }

    @Test func lateJumpLandsAheadWhereTheTimelineWillBe() throws {
        let h = try synced()
        h.advance(to: 1)
        // Its instant is only 50 ms away: too late to preroll for it.
        let seek = Timeline(epoch: 2, position: 42, partyTime: h.party(1.05), playing: true, jump: true)
        let s = try #require(h.receive(.timeline(seek)).seeks.first)
        #expect(near(s.at, 1 + ParticipantCore.seekLead))
        #expect(near(s.position, 42 + (1 + ParticipantCore.seekLead - 1.05)))
        #expect(!s.catchUp)
    }

    @Test func itemChangeSeeksTheNewItem() throws {
        let h = try synced()
        let t = Timeline(epoch: 2, item: 1, position: 0, partyTime: h.party(h.now + 1), playing: true, jump: true)
        let s = try #require(h.receive(.timeline(t)).seeks.first)
        #expect(s.item == 1)
        #expect(s.position == 0)
    }

    // MARK: Reconciling

    /// Synced and playing from local 1.16 at position 0.
    private func playing() throws -> MemberHarness {
        let h = try synced()
        h.advance(to: 1)
        h.receive(.timeline(Timeline(epoch: 2, position: 0, partyTime: h.party(1.16), playing: true, jump: false)))
        return h
    }

    @Test func tickCorrectsAnError() throws {
        let h = try playing()
        // Ten milliseconds ahead of the timeline: slow down, as much as allowed.
        let out = h.advance(to: 2) { t in t >= 1.16 ? t - 1.16 + 0.010 : 0 }
        let c = try #require(out.corrections.first)
        #expect(near(c, -0.005, 1e-5))
        // Not re-sent while it stays the same.
        #expect(out.corrections.count == 1)
        #expect(near(h.core.lastError, 0.010, 1e-5))
        // Behind by 4 ms: speed up by half of that per second.
        let back = h.advance(to: 3) { t in t - 1.16 - 0.004 }
        #expect(near(back.corrections.last, 0.002, 2e-5))
        // On time: only the (zero) drift remains.
        let fine = h.advance(to: 4) { t in t - 1.16 }
        #expect(near(fine.corrections.last, 0, 2e-5))
        #expect(h.core.lastError.map { abs($0) < 1e-6 } == true)
    }

    @Test func nothingIsReconciledBeforeTheInstantOrWhilePrerolling() throws {
        let h = try synced()
        h.advance(to: 1)
        h.receive(.timeline(Timeline(epoch: 2, position: 0, partyTime: h.party(3), playing: true, jump: false)))
        // The instant is ahead: a player at 0 is right, whatever the clock says now.
        #expect(h.advance(to: 2.9) { _ in 0.5 }.corrections.isEmpty)
        // A prerolling player is never judged.
        h.set(now: 5)
        #expect(h.tick(position: 9, prerolling: true).corrections.isEmpty)
        // No snapshot, no judgement.
        h.set(now: 5.5)
        #expect(h.tick(position: nil).corrections.isEmpty)
    }

    /// A command's timeline before its instant is not yet what the player follows: the error against it
    /// (a pause 100 ms ahead reads the playing player 100 ms short of the paused position) is not the
    /// member's skew, and its status does not say it.
    @Test func noSkewIsToldAgainstATimelineBeforeItsInstant() throws {
        let h = try playing()
        h.advance(to: 2) { t in t - 1.16 }
        #expect(h.core.lastError.map { abs($0) < 1e-6 } == true)
        // The host pauses at local 2.1, at position 0.94; the command arrives at 2.
        h.receive(.timeline(Timeline(epoch: 3, position: 2.1 - 1.16, partyTime: h.party(2.1), playing: false, jump: false)))
        h.advance(to: 2.09) { t in t - 1.16 }
        #expect(h.core.lastError.map { abs($0) < 1e-6 } == true, "\(String(describing: h.core.lastError))")
        // Paused on its instant, on the paused picture.
        h.advance(to: 2.3) { t in min(t, 2.1) - 1.16 }
        #expect(h.core.lastError.map { abs($0) < 1e-6 } == true, "\(String(describing: h.core.lastError))")
    }

    @Test func persistentLargeErrorReseeks() throws {
        let h = try playing()
        // Half a second behind, beyond the cool-down of the join's seek.
        let out = h.advance(to: 5) { t in max(0, t - 1.16 - 0.5) }
        let s = try #require(out.seeks.first)
        #expect(s.catchUp)
        #expect(s.epoch == 2)
        #expect(s.playing)
        #expect(near(s.position, s.at - 1.16, 1e-5))
        #expect(out.seeks.count == 1)
        // Not before the cool-down after the join's own seek (and three checks over the threshold).
        let seeks = h.log.filter { if case .seek = $0.action { true } else { false } }.map(\.time)
        let joinSeek = try #require(seeks.first)
        let seekTime = try #require(seeks.dropFirst().first)
        #expect(seekTime >= joinSeek + SyncController.Tuning().seekCooldown - 1e-9)
        #expect(!h.core.isSynced)
    }

    @Test func pausedPlayerOffThePausedPictureReseeks() throws {
        let h = try synced()
        h.advance(to: 1)
        h.receive(.timeline(Timeline(epoch: 2, position: 7, partyTime: h.party(1.2), playing: false, jump: false)))
        // Within half a frame: nothing.
        #expect(h.advance(to: 1.5) { _ in 7.01 }.seeks.isEmpty)
        let out = h.advance(to: 2) { _ in 7.5 }
        let s = try #require(out.seeks.first)
        #expect(s.position == 7)
        #expect(!s.playing)
        #expect(s.catchUp)
    }

    @Test func missedInstantReportsAStallThenReady() throws {
        let h = try synced()
        h.advance(to: 1)
        let s = try #require(h.receive(.timeline(Timeline(epoch: 2, position: 42, partyTime: h.party(1.4), playing: true, jump: true))).seeks.first)
        let before = h.advance(to: s.at - 0.01).statuses
        #expect(!before.contains { $0.state == .stalled })
        let after = h.advance(to: s.at + 0.05).statuses
        #expect(after.filter { $0.state == .stalled }.count == 1)
        let meanwhile = h.advance(to: s.at + 0.7).statuses
        #expect(!meanwhile.isEmpty)
        #expect(meanwhile.allSatisfy { $0.state == .stalled })
        let done = h.seekCompleted(epoch: 2)
        #expect(done.statuses.map(\.state) == [.ready])
        #expect(done.statuses.first?.epoch == 2)
        #expect(h.advance(to: s.at + 3).statuses.allSatisfy { $0.state == .ready })
    }

    @Test func periodicStatusReportsTheState() throws {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        let earlyOut = h.advance(to: 0.3)
        #expect(earlyOut.statuses.map(\.state) == [.syncing])
        var seek = earlyOut.seeks.first
        while seek == nil, h.now < 10 { seek = h.advance(to: h.now + 0.005).seeks.first }
        #expect(seek != nil)
        h.seekCompleted(epoch: 1)
        let later = h.advance(to: 4).statuses
        #expect(later.count >= 2)
        #expect(later.allSatisfy { $0.state == .ready && $0.epoch == 1 })
        let last = try #require(later.last)
        #expect(near(last.rttMs, 20, 0.01))
        #expect(near(last.offsetUncertaintyMs, 10, 0.1))
    }

    /// A status must always be encodable: JSON has no infinities, and `PartyProtocol.encode` traps on them.
    @Test func statusFiguresStayFiniteForAHugeSeekTarget() throws {
        let h = try synced()
        h.advance(to: 1)
        // A position the server accepts (finite, ≥ 0) but far beyond any file.
        let s = try #require(h.receive(.timeline(Timeline(epoch: 2, position: 1e308, partyTime: h.party(1.5), playing: false, jump: true))).seeks.first)
        h.seekCompleted(epoch: 2)
        let out = h.advance(to: s.at + 1) { _ in 3600 }
        for status in out.statuses + h.core.statusMessage(.ready).asStatuses {
            #expect(status.skewMs?.isFinite != false, "skewMs \(String(describing: status.skewMs)) cannot be encoded")
        }
    }

    // MARK: Membership and notices

    @Test func membershipMessagesUpdateTheListAndNotify() {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        let carol = ParticipantInfo(id: "p3", name: "Carol", role: .participant, joinedAt: 20)
        #expect(h.receive(.joined(carol)) == [.notice(.participantJoined(carol))])
        #expect(h.core.participants.map(\.id) == ["p1", "p2", "p3"])
        #expect(h.receive(.joined(carol)).count == 1)
        #expect(h.core.participants.count == 3)
        #expect(h.receive(.left(Left(participant: Fixtures.alice, reason: "bye"))) == [.notice(.participantLeft(Fixtures.alice, reason: "bye"))])
        #expect(h.core.participants.map(\.id) == ["p2", "p3"])
        #expect(h.receive(.participants(ParticipantList(participants: [carol]))) == [.notice(.participantList([carol]))])
        #expect(h.core.participants == [carol])
    }

    @Test func hostChangeDemotesTheOldHostAndPromotesMe() {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        var newHost = Fixtures.bob
        newHost.role = .host
        #expect(h.receive(.hostChanged(newHost)) == [.notice(.hostChanged(newHost))])
        #expect(h.core.me?.role == .host)
        #expect(h.core.participants.first { $0.id == "p1" }?.role == .participant)
        #expect(h.core.participants.first { $0.id == "p2" }?.role == .host)
    }

    @Test func chatRefusalsAndNoticesText() {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        let line = ChatMessage(from: "Alice", text: "popcorn?", time: 5)
        #expect(h.receive(.chatMessage(line)) == [.notice(.chat(line))])
        #expect(h.receive(.refused(Refused(id: 3, reason: "only the host"))) == [.notice(.refused("only the host"))])
        #expect(h.receive(.listParticipants).isEmpty)  // not a server message: ignored
        #expect(PartyNotice.chat(line).text == "<Alice> popcorn?")
        #expect(PartyNotice.refused("no").text == "refused: no")
        #expect(PartyNotice.participantList([Fixtures.alice, Fixtures.bob]).text == "here: Alice (host), Bob")
        #expect(PartyNotice.partyEnded("host left").text == "party ended: host left")
    }

    @Test func requestsCarryIncreasingIDs() {
        var core = ParticipantCore(hello: Hello(party: "p", key: "k", name: "n"))
        let first = core.request(.seek, value: 12)
        let second = core.request(.play)
        #expect(first == .send(.command(Command(id: 1, action: .seek, value: 12))))
        #expect(second == .send(.command(Command(id: 2, action: .play))))
    }

    /// A server that does not answer (a join storm) gets at most `burstCount` pings back to back, then
    /// the steady pace: the burst does not go on for as long as its answers are late.
    @Test func anUnansweredBurstStopsAtTheInFlightCap() {
        let h = MemberHarness.participant()
        h.answerPings = false
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        h.advance(to: 2)
        // 16 back to back (within 0.25 s), then 10 a second for the rest of the 2 s.
        #expect(h.pingTimes.count <= ClockSync.burstCount + Int(2 / ClockSync.steadyInterval) + 1, "\(h.pingTimes.count) pings")
        #expect(h.pingTimes.count >= ClockSync.burstCount)
    }

    /// A pong read off the socket at 0.02 but handled at 1.5 (the member was busy) is a 20 ms
    /// round trip, not a 1.5 s one.
    @Test func pongReceiveTimeIsTheTransportsNotTheHandlers() throws {
        let h = MemberHarness.participant()
        h.answerPings = false
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        _ = h.core.receive(.timePong(TimePong(id: 1, t0: 0, t1: 1000.01, t2: 1000.01)), receivedAt: 0.02, now: 1.5)
        let sample = try #require(h.core.clockSync.samples.first)
        #expect(sample.t3 == 0.02)
        #expect(abs(sample.delay - 0.02) < 1e-9)
        #expect(abs(sample.offset - 1000) < 1e-9)
    }

    /// The runner stamps t0 as the ping leaves the socket (after the core made it): the sample uses
    /// that t0, and an echo outside [made, arrival] is not trusted.
    @Test func aPingStampedOnLeavingIsMeasuredFromThere() throws {
        let h = MemberHarness.participant()
        h.answerPings = false
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        _ = h.core.receive(.timePong(TimePong(id: 1, t0: 0.004, t1: 1000.014, t2: 1000.014)), receivedAt: 0.024, now: 0.03)
        let sample = try #require(h.core.clockSync.samples.first)
        #expect(sample.t0 == 0.004)
        #expect(abs(sample.delay - 0.02) < 1e-9)
        h.set(now: 0.05)
        let ping = try #require(h.tick().pings.first)
        #expect(h.core.receive(.timePong(TimePong(id: ping.id, t0: 0.2, t1: 1000.1, t2: 1000.1)), receivedAt: 0.1, now: 0.1).isEmpty)
        #expect(h.core.clockSync.samples.count == 1, "a t0 after the answer arrived is not trusted")
    }

    @Test func unmatchedPongsAreIgnored() throws {
        let h = MemberHarness.participant()
        h.answerPings = false
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        #expect(h.receive(.timePong(TimePong(id: 99, t0: 0, t1: 1000, t2: 1000))).isEmpty)
        #expect(h.core.clockSync.samples.isEmpty)
        h.set(now: 0.02)
        h.receive(.timePong(TimePong(id: 1, t0: 0, t1: 1000.01, t2: 1000.01)))
        #expect(h.core.clockSync.samples.count == 1)
        // Answered once only.
        #expect(h.receive(.timePong(TimePong(id: 1, t0: 0, t1: 1000.01, t2: 1000.01))).isEmpty)
        #expect(h.core.clockSync.samples.count == 1)
        // An answer that does not echo the ping's own t0 is not trusted.
        h.set(now: 0.03)
        let ping = try #require(h.tick().pings.first)
        h.set(now: 0.05)
        #expect(h.receive(.timePong(TimePong(id: ping.id, t0: ping.t0 - 0.5, t1: 1000.04, t2: 1000.04))).isEmpty)
        #expect(h.core.clockSync.samples.count == 1)
    }

    // MARK: Ending

    @Test func partyEndedDisconnectsForGood() throws {
        let h = try playing()
        let out = h.receive(.partyEnded(PartyEnded(reason: "the host left")))
        #expect(out == [.notice(.partyEnded("the host left")), .disconnect(reason: "the host left")])
        #expect(h.core.ended)
        #expect(!h.core.isJoined)
        #expect(h.tick(position: 3).isEmpty)
        #expect(h.core.nextWake(after: 10) == 11)
    }

    @Test func fatalErrorDisconnectsForGood() throws {
        let h = try synced()
        let error = ErrorMessage(code: .flood, message: "too many")
        #expect(h.receive(.error(error)) == [.notice(.error(error)), .disconnect(reason: "too many")])
        #expect(h.core.ended)

        let fresh = MemberHarness.participant()
        fresh.start()
        let wrongKey = ErrorMessage(code: .wrongKey, message: "wrong key")
        #expect(fresh.receive(.error(wrongKey)).disconnects == ["wrong key"])
        #expect(fresh.core.ended)
        // Before any welcome, an unknown party is final too.
        let lost = MemberHarness.participant()
        lost.start()
        lost.receive(.error(ErrorMessage(code: .unknownParty, message: "no party")))
        #expect(lost.core.ended)
    }

    @Test func serverLosingThePartyAfterAWelcomeIsNotFinal() throws {
        let h = try synced()
        let out = h.receive(.error(ErrorMessage(code: .unknownParty, message: "no party")))
        #expect(out.disconnects == ["no party"])
        #expect(!h.core.ended)
        let shutdown = h.receive(.error(ErrorMessage(code: .serverShutdown, message: "bye")))
        #expect(shutdown.disconnects == ["bye"])
        #expect(!h.core.ended)
    }

    // MARK: Reconnecting

    @Test func participantReconnectsWithItsToken() throws {
        let h = try playing()
        let out = h.reconnect()
        #expect(out == [.send(.hello(Hello(party: "brave-otter-42", key: "s3cret", name: "Bob", create: nil, resume: "tok-1")))])
        #expect(h.core.clockSync.estimate == nil)
        #expect(h.core.isJoined)
    }

    @Test func hostReconnectRecreatesThePartyWhereItWas() throws {
        let h = try synced(host: true)
        h.advance(to: 1)
        h.receive(.timeline(Timeline(epoch: 2, item: 1, position: 5, partyTime: h.party(1.2), rate: 1.5, playing: false, jump: false)))
        let out = h.reconnect()
        guard case .send(.hello(let hello))? = out.first, out.count == 1 else {
            Issue.record("expected one hello, got \(out)")
            return
        }
        #expect(hello.resume == "tok-1")
        #expect(hello.name == "Alice")
        let create = try #require(hello.create)
        #expect(create.items == ["movie.mp4", "extra.mkv"])
        #expect(create.restore == .init(epoch: 2, item: 1, position: 5, rate: 1.5, playing: false))
    }

    @Test func playingHostRestoresFromTheLastCheckedPosition() throws {
        let h = try synced(host: true)
        h.advance(to: 1)
        h.receive(.timeline(Timeline(epoch: 2, position: 0, partyTime: h.party(1.16), playing: true, jump: false)))
        h.advance(to: 3) { t in t - 1.16 }
        guard case .send(.hello(let hello))? = h.reconnect().first else {
            Issue.record("expected a hello")
            return
        }
        let restore = try #require(hello.create?.restore)
        #expect(restore.epoch == 2)
        #expect(restore.playing)
        // Where the party was at the last check (every 0.1 s).
        #expect(restore.position > 1.6 && restore.position <= 3 - 1.16 + 1e-6)
    }

    @Test func hostThatNeverGotInRetriesTheCreate() {
        let h = MemberHarness.host()
        h.start()
        let out = h.reconnect()
        guard case .send(.hello(let hello))? = out.first else {
            Issue.record("expected a hello")
            return
        }
        #expect(hello.create == h.core.hello.create)
        #expect(hello.create?.restore == nil)
        #expect(hello.resume == nil)
    }

    @Test func afterReconnectTheSameEpochIsAppliedAgainOnceTheClockIsKnown() throws {
        let h = try playing()
        h.advance(to: 2) { t in t - 1.16 }
        let oldPings = h.core.clockSync.samples.count
        #expect(oldPings > 0)
        h.reconnect()
        // An answer to a ping from before the reconnect is not trusted.
        #expect(h.receive(.timePong(TimePong(id: 1, t0: 0, t1: 1000.01, t2: 1000.01))).isEmpty)
        let timeline = try #require(h.core.timeline)
        var welcome = h.welcome(timeline: timeline)
        welcome.token = "tok-1"
        let out = h.receive(.welcome(welcome))
        #expect(out.pings.count == 1)
        // After a new burst, the timeline is applied again (no jump: a clock switch).
        var applied: [ParticipantCore.Action] = []
        while applied.isEmpty, h.now < 4 {
            applied = h.advance(to: h.now + 0.005) { t in t - 1.16 }.filter {
                if case .switchClock = $0 { true } else if case .seek = $0 { true } else { false }
            }
        }
        let clock = try #require(applied.clockSwitches.first)
        #expect(clock.epoch == 2)
        #expect(near(clock.clock.anchorHost, 1.16, 1e-5))
        #expect(h.core.clockSync.samples.count == ClockSync.burstCount)
    }

    @Test func restoredEpochAfterReconnectIsFollowed() throws {
        let h = try playing()
        h.reconnect()
        let restored = Timeline(epoch: 3, position: 4, partyTime: h.party(h.now + 0.1), playing: true, jump: false)
        h.receive(.welcome(h.welcome(timeline: restored)))
        var switched: [(clock: MediaClock, epoch: Int)] = []
        while switched.isEmpty, h.now < 4 { switched = h.advance(to: h.now + 0.005).clockSwitches }
        #expect(switched.first?.epoch == 3)
        #expect(h.core.appliedEpoch == 3)
    }
}

private extension ParticipantCore.Action {
    var asStatuses: [Status] { [self].statuses }
}

@Suite struct MemberPresenceTests {
    @Test func aPlayerThatCannotOpenTheItemSaysSoAtOnce() throws {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))))
        let out = h.core.mediaReport(source: nil, problem: "party.mp4: HTTP 404 not found", now: 0.5)
        guard case .send(.status(let status)) = try #require(out.first) else { Issue.record("no status: \(out)"); return }
        #expect(status.state == .unavailable)
        #expect(status.problem == "party.mp4: HTTP 404 not found")
        #expect(h.core.mediaReport(source: nil, problem: "party.mp4: HTTP 404 not found", now: 0.6).isEmpty)
        // Playing again (the next item opened): the problem is gone from its statuses.
        let back = h.core.mediaReport(source: "streaming", problem: nil, now: 0.7)
        guard case .send(.status(let again)) = try #require(back.first) else { Issue.record("no status: \(back)"); return }
        #expect(again.state != .unavailable && again.problem == nil && again.source == "streaming")
    }

    @Test func othersHearWhoCannotPlay() {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, item: 1, partyTime: h.party(0)))))
        let gus = ParticipantInfo(id: "p9", name: "Gus", role: .participant, joinedAt: 1,
                                  presence: Presence(state: .unavailable, problem: "no such codec"))
        h.receive(.joined(ParticipantInfo(id: "p9", name: "Gus", role: .participant, joinedAt: 1)))
        let out = h.receive(.presence(gus))
        #expect(out == [.notice(.presenceChanged(gus, item: 1))])
        #expect(PartyNotice.presenceChanged(gus, item: 1).text == "Gus can't play item 2: no such codec")
        #expect(h.core.participants.first { $0.id == "p9" }?.presence?.state == .unavailable)
        #expect(PartyNotice.participantList([gus]).text == "here: Gus: can't play: no such codec")
    }
}
