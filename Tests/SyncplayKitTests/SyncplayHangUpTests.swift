import PartyKit
import Testing
@testable import SyncplayKit

/// What passes (the party's server restarting, the party connection closing under the member) is
/// a chat line and a close without `Error`, so that Syncplay's client reconnects by itself; what
/// must stay final (a wrong password, an unknown room, an ended party) keeps its `Error`.
@Suite struct SyncplayHangUpTests {
    static let gateway = SyncplayServerCore.gatewayName

    static func errors(_ outputs: [SyncplayPartyBridge.Output]) -> [String] {
        outputs.compactMap { if case .syncplay(.error(let text)) = $0 { text } else { nil } }
    }

    @Test func hangingUpIsAChatLineAndACloseWithoutError() {
        var core = SyncplayServerCore(now: 0)
        _ = core.receive(.hello(SyncplayHello(username: "amy", room: "p", version: "1.6.9")), now: 0, room: nil)
        _ = core.welcome(name: "amy", room: "p", now: 0, state: .init(position: 0, paused: true))
        #expect(core.hangUp("the server is restarting; reconnecting")
            == [.send(.chat(SyncplayChat(username: Self.gateway, message: "the server is restarting; reconnecting"))),
                .close("the server is restarting; reconnecting")])
        #expect(core.phase == .closed)
        // Once closed, nothing more goes out: neither a second hang-up nor a refusal.
        #expect(core.hangUp("again").isEmpty)
        #expect(core.deny("late").isEmpty)
    }

    @Test func aRestartingServerHangsUpAndTheMemberLeaves() {
        var bridge = SyncplayPartyBridgeTests.joined()
        let out = bridge.fromParty(.error(ErrorMessage(code: .serverShutdown, message: "the server is restarting")), now: 2)
        #expect(Self.errors(out).isEmpty, "an Error would make Syncplay stop retrying")
        #expect(out == [.syncplay(.chat(SyncplayChat(username: Self.gateway, message: "the server is restarting; reconnecting"))),
                        .close("the server is restarting; reconnecting"), .leaveParty])
        // The party connection closing next adds nothing.
        #expect(bridge.partyClosed("server stopping", now: 2.1).isEmpty)
    }

    @Test func thePartyConnectionClosingHangsUp() {
        var bridge = SyncplayPartyBridgeTests.joined()
        let out = bridge.partyClosed("the server went away", now: 2)
        #expect(Self.errors(out).isEmpty)
        #expect(out == [.syncplay(.chat(SyncplayChat(username: Self.gateway, message: "the party connection closed (the server went away); reconnecting"))),
                        .close("the party connection closed (the server went away); reconnecting")])
    }

    @Test func finalRefusalsKeepTheirError() {
        var ended = SyncplayPartyBridgeTests.joined()
        #expect(Self.errors(ended.fromParty(.partyEnded(PartyEnded(reason: "the host ended it")), now: 2)) == ["the party ended: the host ended it"])
        var version = SyncplayPartyBridgeTests.joined()
        #expect(Self.errors(version.fromParty(.error(ErrorMessage(code: .versionMismatch, message: "too old")), now: 2)) == ["the party: too old"])
        var unknown = SyncplayPartyBridge(now: 0)
        _ = unknown.received([.hello(SyncplayHello(username: "x", password: "00", room: "nope", version: "1.6.9"))], now: 0)
        #expect(Self.errors(unknown.keyChecked(.unknownParty, now: 0)).count == 1)
        var wrong = SyncplayPartyBridge(now: 0)
        _ = wrong.received([.hello(SyncplayHello(username: "x", password: "00", room: "p", version: "1.6.9"))], now: 0)
        #expect(Self.errors(wrong.keyChecked(.wrongKey, now: 0)) == ["Wrong password supplied"])
    }
}
