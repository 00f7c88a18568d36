import Testing
@testable import PartyKit

/// The member's lifecycle (``ParticipantCore/Phase``): greeting → seated → ended, each named event
/// from each phase, the out-of-order ones included.
@Suite struct ParticipantPhaseTests {
    typealias Seat = ParticipantCore.Seat

    /// A member welcomed on a paused timeline (epoch 1), its join seek done.
    private func seated(host: Bool = false) throws -> (MemberHarness, Seat) {
        let h = host ? MemberHarness.host() : MemberHarness.participant()
        _ = try #require(h.join(timeline: Timeline(epoch: 1, partyTime: h.party(0), playing: false), you: host ? Fixtures.alice : Fixtures.bob))
        return (h, try #require(h.core.phase.seat))
    }

    private func fatal(_ code: ErrorMessage.Code = .flood) -> ErrorMessage { ErrorMessage(code: code, message: "\(code)") }

    // MARK: Greeting

    @Test func aNewMemberIsGreetingAndStaysSoUntilItsWelcome() {
        let h = MemberHarness.participant()
        #expect(h.core.phase == .greeting)
        #expect(h.start() == [.send(.hello(h.core.hello))])
        #expect(h.core.phase == .greeting)
        #expect(h.tick(position: 0).isEmpty)
        #expect(h.seekCompleted(epoch: 1).isEmpty)
        #expect(h.core.mediaReport(source: "local", problem: nil, now: 0).isEmpty)
        #expect(h.core.mediaSource == "local")
        // A connection that closed before the welcome: the same hello again, still greeting.
        #expect(h.reconnect() == [.send(.hello(h.core.hello))])
        #expect(h.core.phase == .greeting)
        #expect(!h.core.isJoined && !h.core.ended && h.core.me == nil && h.core.appliedEpoch == 0)
    }

    /// Timelines and the roster before any welcome (a server never sends them): no seat to update.
    @Test func whatNeedsASeatIsIgnoredWhileGreeting() {
        let h = MemberHarness.participant()
        h.start()
        let carol = ParticipantInfo(id: "p3", name: "Carol", role: .participant, joinedAt: 1)
        let early: [PartyMessage] = [
            .timeline(Timeline(epoch: 2, partyTime: h.party(1), reason: "Alice: play")), .joined(carol),
            .left(Left(participant: carol, reason: "bye")), .participants(ParticipantList(participants: [carol])),
            .presence(carol), .hostChanged(carol), .timePong(TimePong(id: 1, t0: 0, t1: 1000, t2: 1000)),
        ]
        for message in early {
            #expect(h.receive(message).isEmpty, "\(message)")
            #expect(h.core.phase == .greeting)
        }
        #expect(h.core.participants.isEmpty && h.core.timeline == nil)
    }

    @Test func chatRefusalsAndRedirectsNeedNoSeat() {
        let h = MemberHarness.participant()
        h.start()
        let line = ChatMessage(from: "Alice", text: "hi", time: 1)
        #expect(h.receive(.chatMessage(line)) == [.notice(.chat(line))])
        #expect(h.receive(.refused(Refused(id: 1, reason: "no"))) == [.notice(.refused("no"))])
        let node = NodeAddress(host: "10.0.0.2", port: 7443)
        #expect(h.receive(.error(ErrorMessage(code: .redirect, message: "elsewhere", redirect: node))) == [.redirect(node)])
        #expect(h.core.phase == .greeting)
    }

    @Test func aWelcomeSeatsAGreetingMemberMeasuringItsClock() {
        let h = MemberHarness.participant()
        h.start()
        let welcome = h.welcome(timeline: Timeline(epoch: 4, partyTime: h.party(0)))
        #expect(h.receive(.welcome(welcome)) == [.notice(.joined(welcome)), .send(.timePing(TimePing(id: 1, t0: 0)))])
        let expected = Seat(welcome: welcome)
        #expect(h.core.phase == .seated(expected))
        #expect(expected.player == .measuring && expected.me == Fixtures.bob && expected.token == "tok-1")
        #expect(expected.nodes.isEmpty && expected.lastError == nil)
    }

    @Test func aFinalErrorOrTheEndWhileGreetingEndsWithNoSeat() {
        for message in [PartyMessage.error(fatal(.wrongKey)), .error(fatal(.unknownParty)), .partyEnded(PartyEnded(reason: "over"))] {
            let h = MemberHarness.participant()
            h.start()
            #expect(h.receive(message).disconnects.count == 1, "\(message)")
            #expect(h.core.phase == .ended(last: nil), "\(message)")
        }
    }

    // MARK: Seated

    /// A welcome while seated with no reconnect (a server that said it twice): the same seat, the
    /// party as the welcome says, the epoch it follows armed to be applied again.
    @Test func aWelcomeWhileSeatedIsTheSameSeatAgain() throws {
        let (h, seat) = try seated()
        guard case .following(1, let holdUntil) = seat.player else { Issue.record("\(seat.player)"); return }
        let carol = ParticipantInfo(id: "p3", name: "Carol", role: .participant, joinedAt: 3)
        var again = h.welcome(timeline: seat.timeline, token: "tok-2")
        again.participants = [Fixtures.alice, Fixtures.bob, carol]
        let out = h.receive(.welcome(again))
        #expect(out.notices == [.joined(again)] && out.pings.count == 1)
        let after = try #require(h.core.phase.seat)
        #expect(h.core.phase.isSeated)
        #expect(after.player == .following(applied: 0, holdUntil: holdUntil))
        #expect(after.token == "tok-2" && after.participants.count == 3)
    }

    @Test func aWelcomeWhileStillMeasuringKeepsMeasuring() {
        let h = MemberHarness.participant()
        h.answerPings = false
        h.start()
        let welcome = h.welcome(timeline: Timeline(epoch: 1, partyTime: h.party(0)))
        h.receive(.welcome(welcome))
        #expect(h.receive(.welcome(welcome)).notices == [.joined(welcome)])
        #expect(h.core.phase == .seated(Seat(welcome: welcome)))
    }

    /// A reconnect keeps the phase: the same seat, the player still following; only the clock is measured anew.
    @Test func reconnectWhileFollowingKeepsTheSeat() throws {
        let (h, seat) = try seated()
        #expect(h.reconnect() == [.send(.hello(Hello(party: "brave-otter-42", key: "s3cret", name: "Bob", resume: "tok-1")))])
        #expect(h.core.phase == .seated(seat))
        #expect(h.core.clockSync.estimate == nil)
        #expect(h.core.isJoined && h.core.isSynced)
    }

    @Test func aHostReconnectingWhileSeatedRecreatesItsParty() throws {
        let (h, seat) = try seated(host: true)
        let out = h.reconnect()
        var create = seat.config
        create.restore = .init(epoch: 1, item: 0, position: 0, rate: 1, playing: false)
        #expect(out == [.send(.hello(Hello(party: "brave-otter-42", key: "s3cret", name: "Alice", create: create, resume: "tok-1")))])
        #expect(h.core.phase == .seated(seat))
    }

    @Test func aLostPartyWhileSeatedIsNotTheEnd() throws {
        let (h, seat) = try seated()
        for code in [ErrorMessage.Code.unknownParty, .serverShutdown] {
            #expect(h.receive(.error(fatal(code))) == [.notice(.error(fatal(code))), .disconnect(reason: "\(code)")])
            #expect(h.core.phase == .seated(seat))
        }
    }

    @Test func aFinalErrorOrTheEndWhileSeatedEndsKeepingTheSeat() throws {
        for message in [PartyMessage.error(ErrorMessage(code: .flood, message: "too many")), .partyEnded(PartyEnded(reason: "too many"))] {
            let (h, seat) = try seated()
            #expect(h.receive(message).disconnects == ["too many"])
            #expect(h.core.phase == .ended(last: seat))
            // What the status line shows stays readable.
            #expect(h.core.me == Fixtures.bob && h.core.timeline == seat.timeline && h.core.ended && !h.core.isJoined)
        }
    }

    // MARK: Ended

    /// The end is final: nothing said, ticked, completed or reconnected after it changes anything.
    @Test func nothingMovesAfterTheEnd() throws {
        let (h, _) = try seated()
        h.receive(.partyEnded(PartyEnded(reason: "the host left")))
        let ended = h.core.phase
        let seat = try #require(ended.seat)
        for message in Fixtures.everyMessage + [.welcome(h.welcome(timeline: Timeline(epoch: 9, partyTime: h.party(1))))] {
            #expect(h.receive(message).isEmpty, "\(message)")
        }
        #expect(h.tick(position: 0).isEmpty)
        #expect(h.seekCompleted(epoch: 1).isEmpty)
        #expect(h.core.mediaReport(source: nil, problem: "gone", now: h.now).isEmpty)
        #expect(h.start().isEmpty)
        #expect(h.reconnect().isEmpty)
        #expect(h.core.phase == ended)
        #expect(h.core.phase == .ended(last: seat))
        #expect(h.core.nextWake(after: 10) == 11)
    }
}
