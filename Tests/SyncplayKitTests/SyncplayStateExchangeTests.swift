import Testing
@testable import SyncplayKit

@Suite struct SyncplayStateExchangeTests {
    @Test func everyStateIsAnsweredEchoingTheServersStampAndSendingOurs() {
        var h = CoreHarness.loggedIn()
        let answer = CoreHarness.answers(h.state(position: 0, paused: true, player: nil)).first
        #expect(answer?.ping?.latencyCalculation == 777.5)
        #expect(answer?.ping?.clientLatencyCalculation == h.now)
        #expect(answer?.ping?.clientRtt == 0)
        #expect(answer?.playstate == .init(position: 0, paused: true))
        #expect(answer?.ignoringOnTheFly == nil)
    }

    @Test func ourEchoedStampGivesTheRoundTripAndAgesAPlayingPosition() {
        var h = CoreHarness.loggedIn()
        let stamp = h.now
        _ = h.state(position: 0, paused: true, player: nil)
        h.now += 0.2
        let actions = h.core.receive(.state(SyncplayState(
            playstate: .init(position: 10, paused: false, setBy: "amy"),
            ping: .init(latencyCalculation: 778, clientLatencyCalculation: stamp, serverRtt: 0.2))), now: h.now, player: nil)
        #expect(abs(h.core.ping.rtt - 0.2) < 1e-9)
        #expect(abs(h.core.ping.forwardDelay - 0.1) < 1e-9)
        #expect(abs((CoreHarness.answers(actions).first?.ping?.clientRtt ?? 0) - 0.2) < 1e-9)
        // The room's position is advanced by the message's age.
        #expect(abs((h.core.room?.position ?? 0) - 10.1) < 1e-9)
    }

    @Test func ourChangeIgnoresStaleServerStatesUntilAcknowledged() {
        var h = CoreHarness.loggedIn()
        _ = h.state(position: 5, paused: true, player: .init(position: 5))
        h.now += 1
        let pause = h.core.userSetPaused(false, now: h.now, player: .init(position: 5))
        let sent = CoreHarness.answers(pause).first
        #expect(sent?.playstate == .init(position: 5, paused: false))
        #expect(sent?.ignoringOnTheFly == .init(client: 1))
        #expect(h.core.clientIgnoringOnTheFly == 1)
        #expect(CoreHarness.sent(pause).contains(.set([.ready(username: nil, isReady: true, manuallyInitiated: false)])))

        // A state sent before the server saw ours says "paused": ignored, and ours is not repeated.
        h.now += 0.1
        let stale = h.state(position: 5, paused: true, player: .init(position: 5.1))
        #expect(CoreHarness.shows(stale).isEmpty)
        #expect(!h.core.localPaused)
        let staleAnswer = CoreHarness.answers(stale).first
        #expect(staleAnswer?.playstate == nil)
        #expect(staleAnswer?.ignoringOnTheFly == .init(client: 1))

        // The server's forced echo of our change: accepted, and its counter acknowledged once.
        h.now += 0.1
        let forced = h.state(position: 5.1, paused: false, setBy: "tandem", ignoring: .init(server: 3, client: 1), player: .init(position: 5.2))
        #expect(h.core.clientIgnoringOnTheFly == 0)
        #expect(CoreHarness.shows(forced).isEmpty)
        #expect(CoreHarness.answers(forced).first?.ignoringOnTheFly == .init(server: 3))
        h.now += 1
        #expect(CoreHarness.answers(h.state(position: 6.1, paused: false, player: .init(position: 6.2))).first?.ignoringOnTheFly == nil)
    }

    @Test func anAcknowledgementByClientCounterClearsIt() {
        var h = CoreHarness.loggedIn()
        _ = h.state(position: 5, paused: true, player: .init(position: 5))
        _ = h.core.userSeek(to: 20, now: h.now)
        #expect(h.core.clientIgnoringOnTheFly == 1)
        _ = h.state(position: 5, paused: true, ignoring: .init(client: 7), player: .init(position: 20))
        #expect(h.core.clientIgnoringOnTheFly == 1)
        _ = h.state(position: 20, paused: true, setBy: "tandem", ignoring: .init(client: 1), player: .init(position: 20))
        #expect(h.core.clientIgnoringOnTheFly == 0)
    }
}
