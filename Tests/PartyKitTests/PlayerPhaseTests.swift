import Testing
@testable import PartyKit

/// How a seated member's player follows the timeline (``ParticipantCore/PlayerPhase``): measuring
/// → joining → following ⇄ seeking, each event from each phase, the out-of-order ones included.
@Suite struct PlayerPhaseTests {
    typealias Snapshot = ParticipantCore.PlayerSnapshot
    typealias PendingSeek = ParticipantCore.PendingSeek

    /// Joined on a paused timeline (epoch 1 at position 0): its join seek prerolls.
    private func joining() throws -> (MemberHarness, PendingSeek) {
        let h = MemberHarness.participant()
        _ = try #require(h.join(timeline: Timeline(epoch: 1, partyTime: h.party(0), playing: false), completeSeek: false))
        guard case .joining(let seek) = h.player else { throw PhaseError.unexpected(h.player) }
        return (h, seek)
    }

    /// Its join seek done: following epoch 1, held until that seek's instant.
    private func following() throws -> (MemberHarness, holdUntil: Double) {
        let (h, seek) = try joining()
        #expect(h.seekCompleted(epoch: seek.epoch).isEmpty)
        #expect(h.player == .following(applied: 1, holdUntil: seek.at))
        return (h, seek.at)
    }

    /// Following, then a jump to 42 s whose instant is 1 s ahead: seeking for epoch 2.
    private func seeking() throws -> (MemberHarness, PendingSeek) {
        let (h, _) = try following()
        h.receive(.timeline(Timeline(epoch: 2, position: 42, partyTime: h.party(h.now + 1), playing: true, jump: true)))
        guard case .seeking(let seek, stalled: false) = h.player else { throw PhaseError.unexpected(h.player) }
        return (h, seek)
    }

    enum PhaseError: Error { case unexpected(ParticipantCore.PlayerPhase?) }

    // MARK: Measuring

    @Test func measuringUntilTheClockIsKnownThenJoining() throws {
        let h = MemberHarness.participant()
        h.start()
        h.receive(.welcome(h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0), playing: false))))
        #expect(h.player == .measuring)
        // Nothing to complete, and an epoch that comes meanwhile waits for the clock too.
        #expect(h.seekCompleted(epoch: 1).isEmpty)
        let next = Timeline(epoch: 2, position: 5, partyTime: h.party(0.01), playing: false, jump: false)
        #expect(h.receive(.timeline(next)).isEmpty)
        #expect(h.player == .measuring)
        var seek: MemberHarness.Seek?
        while seek == nil, h.now < 2 { seek = h.advance(to: h.now + 0.005).seeks.first }
        let s = try #require(seek)
        #expect(s.epoch == 2 && s.position == 5 && s.catchUp)
        #expect(h.player == .joining(PendingSeek(epoch: 2, at: s.at, applied: 2)))
    }

    // MARK: Joining

    @Test func joiningBecomesFollowingWhenItsSeekLands() throws {
        let (h, seek) = try joining()
        #expect(h.seekCompleted(epoch: seek.epoch + 1).isEmpty)
        #expect(h.player == .joining(seek))
        #expect(!h.core.isSynced)
        // A join that lands says nothing: the party was never told it was late.
        #expect(h.seekCompleted(epoch: seek.epoch).isEmpty)
        #expect(h.player == .following(applied: 1, holdUntil: seek.at))
        #expect(h.core.isSynced)
    }

    @Test func aJumpWhileJoiningReplacesTheJoin() throws {
        let (h, first) = try joining()
        let out = h.receive(.timeline(Timeline(epoch: 2, position: 42, partyTime: h.party(h.now + 1), playing: true, jump: true)))
        let s = try #require(out.seeks.first)
        #expect(!s.catchUp && s.epoch == 2 && s.position == 42)
        #expect(h.player == .joining(PendingSeek(epoch: 2, at: s.at, applied: 2)))
        #expect(h.seekCompleted(epoch: first.epoch).isEmpty)
        #expect(h.player == .joining(PendingSeek(epoch: 2, at: s.at, applied: 2)))
        h.seekCompleted(epoch: 2)
        #expect(h.player == .following(applied: 2, holdUntil: s.at))
    }

    /// A play while the join prerolls switches the clock; the join's seek still lands.
    @Test func aClockSwitchWhileJoiningKeepsItsSeek() throws {
        let (h, first) = try joining()
        let out = h.receive(.timeline(Timeline(epoch: 2, partyTime: h.party(h.now + 1), playing: true, jump: false)))
        #expect(out.clockSwitches.map(\.epoch) == [2])
        #expect(h.player == .joining(PendingSeek(epoch: 1, at: first.at, applied: 2)))
        #expect(h.seekCompleted(epoch: 1).isEmpty)
        #expect(h.player == .following(applied: 2, holdUntil: first.at))
    }

    // MARK: Following

    @Test func aClockSwitchWhileFollowingFollowsTheNewEpoch() throws {
        let (h, holdUntil) = try following()
        let out = h.receive(.timeline(Timeline(epoch: 2, partyTime: h.party(h.now + 1), playing: true, jump: false)))
        #expect(out.clockSwitches.map(\.epoch) == [2] && out.seeks.isEmpty)
        #expect(h.player == .following(applied: 2, holdUntil: holdUntil))
    }

    @Test func aStaleEpochOrACompletionOutOfTheBlueChangesNothing() throws {
        let (h, holdUntil) = try following()
        #expect(h.receive(.timeline(Timeline(epoch: 1, position: 9, partyTime: h.party(h.now), jump: true))).isEmpty)
        #expect(h.seekCompleted(epoch: 1).isEmpty)
        #expect(h.player == .following(applied: 1, holdUntil: holdUntil))
    }

    @Test func aJumpWhileFollowingSeeks() throws {
        let (h, seek) = try seeking()
        let s = try #require(h.log.last.flatMap { MemberHarness.Seek($0.action) })
        #expect(seek == PendingSeek(epoch: 2, at: s.at, applied: 2))
        #expect(!s.catchUp && s.position == 42)
        #expect(!h.core.isSynced)
    }

    @Test func aPlayerOffThePausedPictureIsReseeked() throws {
        let (h, holdUntil) = try following()
        // Checked from its hold on; re-seeked at the first check (and not yet late).
        let out = h.advance(to: holdUntil + 0.2) { _ in 0.5 }
        let s = try #require(out.seeks.first)
        #expect(s.catchUp && s.epoch == 1 && s.position == 0)
        #expect(h.player == .seeking(PendingSeek(epoch: 1, at: s.at, applied: 1), stalled: false))
    }

    // MARK: Seeking

    @Test func aLateSeekStallsOnceThenSaysReady() throws {
        let (h, seek) = try seeking()
        #expect(h.advance(to: seek.at - 0.01).statuses.allSatisfy { $0.state != .stalled })
        let late = h.advance(to: seek.at + 0.05)
        #expect(!late.statuses.isEmpty && late.statuses.allSatisfy { $0.state == .stalled })
        #expect(h.player == .seeking(seek, stalled: true))
        let done = h.seekCompleted(epoch: 2)
        #expect(done.statuses.map(\.state) == [.ready] && done.statuses.first?.epoch == 2)
        #expect(h.player == .following(applied: 2, holdUntil: seek.at))
    }

    @Test func aJumpWhileStalledStaysStalled() throws {
        let (h, seek) = try seeking()
        h.advance(to: seek.at + 0.05)
        let out = h.receive(.timeline(Timeline(epoch: 3, position: 7, partyTime: h.party(h.now + 1), playing: true, jump: true)))
        let s = try #require(out.seeks.first)
        #expect(h.player == .seeking(PendingSeek(epoch: 3, at: s.at, applied: 3), stalled: true))
        #expect(h.seekCompleted(epoch: 2).isEmpty)
        #expect(h.seekCompleted(epoch: 3).statuses.map(\.state) == [.ready])
    }

    @Test func aReconnectWhileSeekingKeepsTheSeekAndTheWelcomeRearmsItsEpoch() throws {
        let (h, seek) = try seeking()
        h.reconnect()
        #expect(h.player == .seeking(seek, stalled: false))
        let timeline = try #require(h.core.timeline)
        h.receive(.welcome(h.welcome(timeline: timeline)))
        #expect(h.player == .seeking(PendingSeek(epoch: 2, at: seek.at, applied: 1), stalled: false))
        h.seekCompleted(epoch: 2)
        #expect(h.player == .following(applied: 1, holdUntil: seek.at))
    }

    // MARK: Buffering

    /// A stream that runs dry while following: still following (held, buffering), then the rejoin's
    /// seek, stalled since the group was asked to wait; ready when it lands.
    @Test func aRejoinAfterBufferingIsAStalledSeek() throws {
        let (h, holdUntil) = try following()
        h.receive(.timeline(Timeline(epoch: 2, position: 10, partyTime: h.party(holdUntil + 0.1), playing: true, jump: false)))
        let start = holdUntil + 0.5
        h.advance(to: start) { t in 10 + t - holdUntil - 0.1 }
        var t = start
        var out: [ParticipantCore.Action] = []
        while t < start + 1 {
            t += 0.01
            h.set(now: t)
            out += h.core.tick(now: t, player: Snapshot(position: 10.4, prerolling: false, starved: true, readAhead: 0))
        }
        #expect(out.statuses.contains { $0.state == .stalled && $0.buffering == true })
        #expect(h.player == .following(applied: 2, holdUntil: holdUntil) && h.core.isBuffering)
        t += 0.1
        h.set(now: t)
        let back = h.core.tick(now: t, player: Snapshot(position: 10.4, prerolling: false, readAhead: BufferingWatch.recoverySeconds))
        let s = try #require(back.seeks.first)
        #expect(h.player == .seeking(PendingSeek(epoch: 2, at: s.at, applied: 2), stalled: true))
        #expect(h.seekCompleted(epoch: 2).statuses.map(\.state) == [.ready])
        #expect(h.player == .following(applied: 2, holdUntil: s.at) && !h.core.isBuffering)
    }
}

extension MemberHarness {
    /// The player's phase while seated (nil: not seated).
    var player: ParticipantCore.PlayerPhase? {
        if case .seated(let seat) = core.phase { seat.player } else { nil }
    }
}
