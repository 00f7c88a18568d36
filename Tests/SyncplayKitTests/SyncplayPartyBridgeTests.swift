import PartyKit
import Testing
@testable import SyncplayKit

/// The gateway's mapping for one Syncplay client, without sockets: password check asked for, the
/// party hello, the room read off the timeline, epochs sent at their instant, refusals forced back.
@Suite struct SyncplayPartyBridgeTests {
    static let item = MediaItem(title: "party.mp4", identity: MediaIdentity(bytes: 10, duration: 60, streams: []))
    static let host = ParticipantInfo(id: "p1", name: "Hana", role: .host, joinedAt: 0, presence: Presence(state: .watching))

    static func states(_ outputs: [SyncplayPartyBridge.Output]) -> [SyncplayState] {
        outputs.compactMap { if case .syncplay(.state(let s)) = $0 { s } else { nil } }
    }

    /// A bridge whose client "Hana" has joined party "p" (where a Tandem "Hana" hosts), paused at 12 s.
    static func joined() -> SyncplayPartyBridge {
        var bridge = SyncplayPartyBridge(now: 0)
        let hello = SyncplayMessage.hello(SyncplayHello(username: "Hana", password: SyncplayPrivacy.passwordDigest("k"), room: "p",
                                                        version: "1.2.255", realVersion: "1.6.9"))
        #expect(bridge.received([hello], now: 0) == [.checkKey(party: "p", digest: SyncplayPrivacy.passwordDigest("k"))])
        #expect(bridge.keyChecked(.accepted(key: "k"), now: 0) == [.connect(Hello(party: "p", key: "k", name: "Hana (Syncplay)"))])
        let me = ParticipantInfo(id: "p2", name: "Hana (Syncplay)", role: .participant, joinedAt: 1)
        let timeline = Timeline(epoch: 1, position: 12, partyTime: 0, playing: false, reason: "Hana created the party")
        _ = bridge.fromParty(.welcome(Welcome(party: "p", you: me, token: "t", config: PartyConfig(items: [Self.item]),
                                              participants: [Self.host, me], timeline: timeline, chat: [], serverTime: 1)), now: 1)
        _ = bridge.received([.state(SyncplayState(ignoringOnTheFly: .init(server: 1)))], now: 1.1)
        return bridge
    }

    @Test func aNameTakenInThePartyGetsAnUnderscoreAndTheWelcomeIsTheTimeline() {
        let bridge = Self.joined()
        // Syncplay's client ignores seeks "by itself": it must not share the host's name.
        #expect(bridge.core.name == "Hana_")
        #expect(bridge.room(at: 5) == .init(position: 12, paused: true, setBy: SyncplayServerCore.gatewayName))
    }

    @Test func anEpochReachesTheClientAtItsInstantNamedAfterWhoCommandedIt() {
        var bridge = Self.joined()
        let seek = Timeline(epoch: 2, position: 30, partyTime: 2.5, playing: true, jump: true, reason: "Hana: seek")
        #expect(bridge.fromParty(.timeline(seek), now: 2) == [.wake(at: 2.5, epoch: 2)])
        // Until then the room is the epoch in force (paused at 12 s).
        #expect(Self.states(bridge.tick(now: 2.2)).first?.playstate?.paused == true)
        let forced = Self.states(bridge.timelineDue(epoch: 2, now: 2.5)).first
        #expect(forced?.playstate == .init(position: 30, paused: false, doSeek: true, setBy: "Hana"))
        #expect(forced?.ignoringOnTheFly?.server == 1)
    }

    @Test func aRefusedPauseIsForcedBackAndExplained() {
        var bridge = Self.joined()
        let pause = bridge.received([.state(SyncplayState(playstate: .init(position: 12, paused: false)))], now: 2)
        #expect(pause == [.party(.command(Command(id: 1, action: .play)))])
        let refused = bridge.fromParty(.refused(Refused(id: 1, reason: "only the host can play in this party (control: host)")), now: 2.1)
        #expect(Self.states(refused).first?.playstate == .init(position: 12, paused: true, doSeek: false, setBy: SyncplayServerCore.gatewayName))
        #expect(refused.contains(.syncplay(.chat(SyncplayChat(username: SyncplayServerCore.gatewayName,
                                                               message: "refused: only the host can play in this party (control: host)")))))
    }

    @Test func wrongAndMissingPasswordsAreTurnedAway() {
        var wrong = SyncplayPartyBridge(now: 0)
        _ = wrong.received([.hello(SyncplayHello(username: "x", password: "00", room: "p", version: "1.6.9"))], now: 0)
        #expect(wrong.keyChecked(.wrongKey, now: 0) == [.syncplay(.error("Wrong password supplied")), .close("Wrong password supplied")])
        var missing = SyncplayPartyBridge(now: 0)
        #expect(missing.received([.hello(SyncplayHello(username: "x", room: "p", version: "1.6.9"))], now: 0)
            == [.syncplay(.error("Password required")), .close("Password required")])
    }
}
