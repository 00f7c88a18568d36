import PartyKit
import Testing
@testable import SyncplayKit

/// Issue #14 follow-up: just after the gateway started, a room naming no party may name one whose
/// host is on its way back to re-create it, so "no party" hangs up (a chat line and the close, no
/// `Error`: Syncplay's client retries); from the end of the grace on it is a final `Error` again.
/// The gateway's start and every event's time are injected.
@Suite struct SyncplayRestartGraceTests {
    static let started = 1000.0
    static let grace = SyncplayRestartGrace(started: started, length: 60)

    /// A client of a gateway started at ``started`` that said hello for room "gone" at `now`, and
    /// the answer to its password check at `now`: the party is not there.
    static func unknownParty(at now: Double, grace: SyncplayRestartGrace? = Self.grace) -> [SyncplayPartyBridge.Output] {
        var bridge = SyncplayPartyBridge(now: now, grace: grace)
        let hello = SyncplayMessage.hello(SyncplayHello(username: "amy", password: SyncplayPrivacy.passwordDigest("k"), room: "gone",
                                                        version: "1.2.255", realVersion: "1.6.9"))
        #expect(bridge.received([hello], now: now) == [.checkKey(party: "gone", digest: SyncplayPrivacy.passwordDigest("k"))])
        return bridge.keyChecked(.unknownParty, now: now)
    }

    static let notYet = #"no party "gone" on this server yet (it has just started; the host may not be back); reconnecting"#
    static let final = [SyncplayPartyBridge.Output.syncplay(.error(#"no party "gone" on this server (the room is the party ID)"#)),
                        .close(#"no party "gone" on this server (the room is the party ID)"#)]

    @Test func withinTheGraceAMissingPartyHangsUpWithoutError() {
        for now in [Self.started, Self.started + 30, Self.started + 59.9] {
            let out = Self.unknownParty(at: now)
            #expect(SyncplayHangUpTests.errors(out).isEmpty, "an Error at +\(now - Self.started) s would make Syncplay stop retrying")
            #expect(out == [.syncplay(.chat(SyncplayChat(username: SyncplayServerCore.gatewayName, message: Self.notYet))), .close(Self.notYet)])
        }
    }

    @Test func fromTheEndOfTheGraceOnAMissingPartyIsAFinalError() {
        for now in [Self.started + 60, Self.started + 3600] {
            #expect(Self.unknownParty(at: now) == Self.final, "at +\(now - Self.started) s")
        }
        // Without a known start (no grace), as before it.
        #expect(Self.unknownParty(at: Self.started, grace: nil) == Self.final)
        // A grace of 0 s covers nothing.
        #expect(Self.unknownParty(at: Self.started, grace: SyncplayRestartGrace(started: Self.started, length: 0)) == Self.final)
    }

    /// The decision is by the time of the password check's answer, not the connection's or the hello's.
    @Test func theAnswersTimeDecides() {
        var bridge = SyncplayPartyBridge(now: Self.started + 50, grace: Self.grace)
        _ = bridge.received([.hello(SyncplayHello(username: "amy", password: "00", room: "gone", version: "1.6.9"))], now: Self.started + 59)
        #expect(bridge.keyChecked(.unknownParty, now: Self.started + 61) == Self.final)
    }

    @Test func otherRefusalsStayFinalWithinTheGrace() {
        var wrong = SyncplayPartyBridge(now: Self.started, grace: Self.grace)
        _ = wrong.received([.hello(SyncplayHello(username: "x", password: "00", room: "p", version: "1.6.9"))], now: Self.started)
        #expect(wrong.keyChecked(.wrongKey, now: Self.started + 1) == [.syncplay(.error("Wrong password supplied")), .close("Wrong password supplied")])
        var missing = SyncplayPartyBridge(now: Self.started, grace: Self.grace)
        #expect(SyncplayHangUpTests.errors(missing.received([.hello(SyncplayHello(username: "x", room: "gone", version: "1.6.9"))],
                                                            now: Self.started + 1)) == ["Password required"])
    }
}
