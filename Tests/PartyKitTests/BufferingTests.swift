import MediaTime
import Testing
@testable import PartyKit

/// A streaming member whose stream runs dry: it holds its picture, asks the group to wait (a
/// stall marked buffering), and rejoins the timeline with a seek once its read-ahead recovered.
@Suite struct BufferingTests {
    typealias Snapshot = ParticipantCore.PlayerSnapshot

    /// A member synced on a playing timeline (epoch 2 from position 10 at local 1), its seek done.
    private func playing() throws -> MemberHarness {
        let h = MemberHarness.participant()
        let join = try #require(h.join(timeline: Timeline(epoch: 1, partyTime: h.party(0), playing: false)))
        #expect(join.epoch == 1)
        h.advance(to: 0.9)
        h.receive(.timeline(Timeline(epoch: 2, position: 10, partyTime: h.party(1), playing: true, jump: false)))
        h.advance(to: 2)
        #expect(h.core.isSynced)
        return h
    }

    /// Ticks the core every 10 ms up to local `t` with what `player` says at each instant.
    @discardableResult
    private func run(_ h: MemberHarness, to t: Double, _ player: (Double) -> Snapshot) -> [ParticipantCore.Action] {
        var out: [ParticipantCore.Action] = []
        var now = h.now
        while now + 0.01 <= t + 1e-9 {
            now += 0.01
            h.set(now: now)
            out += h.core.tick(now: now, player: player(now))
        }
        return out
    }

    private func dry(_ position: Double, readAhead: Double = 0) -> Snapshot {
        Snapshot(position: position, prerolling: false, starved: true, readAhead: readAhead)
    }

    @Test func aStreamThatRunsDryHoldsThePictureAsksToWaitAndRejoinsOnceRecovered() throws {
        let h = try playing()
        // A moment without data is not buffering.
        let blip = run(h, to: 2.2) { self.dry(11 + $0 - 2) }
        #expect(blip.statuses.allSatisfy { $0.buffering == nil && $0.state == .ready })
        #expect(blip.clockSwitches.isEmpty)
        run(h, to: 2.5) { Snapshot(position: 11 + $0 - 2, prerolling: false, readAhead: 5) }
        #expect(h.core.isSynced)

        // Dry for longer than the confirmation: the picture is held where it is, the group asked to wait.
        let ran = run(h, to: 3.2) { self.dry(11.5 + $0 - 2.5) }
        let hold = try #require(ran.clockSwitches.first)
        #expect(hold.clock.isPaused)
        #expect(abs(hold.clock.anchorPosition - (11.5 + BufferingWatch.confirmSeconds)) < 0.15, "held where it ran dry: \(hold.clock)")
        let stall = try #require(ran.statuses.first)
        #expect(stall.state == .stalled && stall.buffering == true)
        #expect(!h.core.isSynced && h.core.isBuffering)
        #expect(ran.seeks.isEmpty, "no re-seek while it waits for its input")

        // The server pauses the party for it: the held player is not switched (it keeps what it reads).
        let pause = Timeline(epoch: 3, position: 12.6, partyTime: h.party(3.3), playing: false, jump: false, reason: "waiting for Bob (buffering)")
        let paused = h.receive(.timeline(pause))
        #expect(paused.clockSwitches.isEmpty)
        #expect(paused.notices == [.timeline(pause, reason: "waiting for Bob (buffering)")])
        let refilling = run(h, to: 4.5) { _ in Snapshot(position: 11.8, prerolling: false, readAhead: 1.5) }
        #expect(refilling.seeks.isEmpty, "1.5 s read ahead is not yet recovered")
        #expect(refilling.statuses.allSatisfy { $0.state == .stalled && $0.buffering == true && $0.epoch == 3 })

        // Recovered: it seeks to where the party is and says ready when the seek lands.
        let back = run(h, to: 4.6) { _ in Snapshot(position: 11.8, prerolling: false, readAhead: BufferingWatch.recoverySeconds) }
        let seek = try #require(back.seeks.first)
        #expect(seek.position == 12.6 && !seek.playing && seek.epoch == 3)
        let done = h.seekCompleted(epoch: 3)
        #expect(done.statuses.map(\.state) == [.ready])
        #expect(done.statuses.first?.buffering == nil)
        #expect(h.core.isSynced && !h.core.isBuffering)
    }

    @Test func whenTheGroupGoesOnItStopsAskingAndDoesNotAskAgainSoon() throws {
        let h = try playing()
        let ran = run(h, to: 2.5) { self.dry(11 + $0 - 2) }
        #expect(ran.statuses.contains { $0.state == .stalled && $0.buffering == true })
        h.receive(.timeline(Timeline(epoch: 3, position: 11.6, partyTime: h.party(2.6), playing: false, jump: false, reason: "waiting for Bob (buffering)")))
        run(h, to: 4) { _ in self.dry(11.3) }
        // The wait is over: the party plays on without it; it says so and is no longer a stall.
        let resume = Timeline(epoch: 4, position: 11.6, partyTime: h.party(4.1), playing: true, jump: false, reason: "went on without the stalled participant")
        let wentOn = h.receive(.timeline(resume))
        #expect(wentOn.statuses.map(\.state) == [.syncing])
        #expect(wentOn.statuses.first?.buffering == true)
        #expect(wentOn.clockSwitches.isEmpty, "still held")
        let later = run(h, to: 6) { _ in Snapshot(position: 11.3, prerolling: false, readAhead: 0.5) }
        #expect(later.statuses.allSatisfy { $0.state == .syncing && $0.buffering == true })

        // Recovered: it catches up with the playing party, then follows it.
        let back = run(h, to: 6.1) { _ in Snapshot(position: 11.3, prerolling: false, readAhead: 3) }
        let seek = try #require(back.seeks.first)
        #expect(seek.playing && seek.epoch == 4 && seek.catchUp)
        #expect(abs(seek.position - (11.6 + (seek.at - 4.1))) < 0.01, "where the party is at the seek's instant")
        #expect(h.seekCompleted(epoch: 4).statuses.map(\.state) == [.ready])

        // Dry again soon after: buffering, but the group is not asked to wait again.
        let again = run(h, to: h.now + 1) { self.dry(seek.position + $0 - seek.at) }
        #expect(again.statuses.contains { $0.buffering == true })
        #expect(!again.statuses.contains { $0.state == .stalled })
    }

    @Test func aLocalPlayerThatNeverRunsDryNeverBuffers() throws {
        let h = try playing()
        let out = run(h, to: 8) { Snapshot(position: 11 + $0 - 2, prerolling: false) }
        #expect(!out.statuses.contains { $0.buffering != nil || $0.state != .ready })
        #expect(!h.core.isBuffering)
    }

    @Test func presenceSaysBufferingAndOldPeersSeeAStall() throws {
        let status = Status(epoch: 3, state: .stalled, buffering: true)
        let wire = PartyProtocol.encode(.status(status))
        #expect(wire.contains("\"buffering\":true"))
        #expect(try PartyProtocol.decode(wire) == .status(status))
        #expect(!PartyProtocol.encode(.status(Status(epoch: 3, state: .ready))).contains("buffering"), "absent when not buffering")
        let presence = Presence(state: .stalled, source: "streaming", buffering: true)
        #expect(presence.text(item: 0) == "buffering")
        #expect(presence.stateName == "buffering")
        #expect(Presence(state: .watching, buffering: true).buffering == nil, "a watching member is not buffering")
        var gus = Fixtures.bob
        gus.presence = presence
        #expect(PartyNotice.presenceChanged(gus, item: 0).text == "Bob buffering")
        #expect(PartyNotice.participantList([gus]).text == "here: Bob: buffering")
    }
}

extension BufferingTests {
    @Test func othersHearOfBufferingOnceAndOfWatchingAgain() throws {
        let h = try playing()
        var gus = Fixtures.alice
        gus.presence = Presence(state: .stalled, source: "streaming", buffering: true)
        #expect(h.receive(.presence(gus)).notices.map(\.text) == ["Alice buffering"])
        // The group went on: still buffering for people, not another line.
        gus.presence = Presence(state: .syncing, source: "streaming", buffering: true)
        #expect(h.receive(.presence(gus)).notices.isEmpty)
        gus.presence = Presence(state: .watching, source: "streaming")
        #expect(h.receive(.presence(gus)).notices.map(\.text) == ["Alice watching (streaming)"])
    }
}
