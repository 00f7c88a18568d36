import PartyKit
import Testing
@testable import SyncplayKit

/// The party's items as Syncplay's shared playlist (issue #13): a client's own playlist is never
/// echoed back (Syncplay 1.6.9 takes that echo as a switch, rewinds to 0:00 and reports the
/// rewind as a seek); once its file is the party's item it gets the party's playlist; its choices
/// become party `item` commands, and the party's item changes reach it as an index.
@Suite struct SyncplayPartyBridgePlaylistTests {
    static let items = [MediaItem(title: "party.mp4", identity: MediaIdentity(bytes: 10, duration: 60, streams: [])),
                        MediaItem(title: "two.mp4", identity: MediaIdentity(bytes: 20, duration: 90, streams: []))]
    static let host = ParticipantInfo(id: "p1", name: "Hana", role: .host, joinedAt: 0, presence: Presence(state: .watching))
    static let me = ParticipantInfo(id: "p2", name: "amy (Syncplay)", role: .participant, joinedAt: 1)

    /// amy's client in party "p" (two items, paused at 12 s of the first).
    static func joined() -> SyncplayPartyBridge {
        var bridge = SyncplayPartyBridge(now: 0)
        let hello = SyncplayMessage.hello(SyncplayHello(username: "amy", password: SyncplayPrivacy.passwordDigest("k"), room: "p",
                                                        version: "1.2.255", realVersion: "1.6.9"))
        _ = bridge.received([hello], now: 0)
        _ = bridge.keyChecked(.accepted(key: "k"), now: 0)
        let timeline = Timeline(epoch: 1, position: 12, partyTime: 0, playing: false, reason: "Hana created the party")
        _ = bridge.fromParty(.welcome(Welcome(party: "p", you: Self.me, token: "t", config: PartyConfig(items: Self.items),
                                              participants: [Self.host, Self.me], timeline: timeline, chat: [], serverTime: 1)), now: 1)
        _ = bridge.received([.state(SyncplayState(ignoringOnTheFly: .init(server: 1)))], now: 1.1)
        return bridge
    }

    static func playlistLines(_ outputs: [SyncplayPartyBridge.Output]) -> [SyncplaySetting] {
        outputs.flatMap { output -> [SyncplaySetting] in
            guard case .syncplay(.set(let settings)) = output else { return [] }
            return settings.filter {
                switch $0 { case .playlistChange, .playlistIndex: true; default: false }
            }
        }
    }

    static let file = SyncplayFile(name: "party.mp4", duration: 60.02, size: .bytes(10))
    static let tandem = SyncplayServerCore.gatewayName

    @Test func theClientsOwnPlaylistIsNotEchoedAndItsFileGetsThePartys() {
        var bridge = Self.joined()
        // What Syncplay 1.6.9 sends at join when it adds the file it was started with.
        let own = bridge.received([.set([.playlistChange(user: nil, files: ["/media/party.mp4"])]), .set([.playlistIndex(user: nil, index: 0)])],
                                  now: 2)
        #expect(Self.playlistLines(own).isEmpty)
        #expect(!own.contains { if case .party(.command) = $0 { true } else { false } })
        // Its file is the party's first item: the party's playlist, its own name for that entry.
        let offered = bridge.received([.set([.file(Self.file)])], now: 3)
        #expect(Self.playlistLines(offered) == [.playlistChange(user: Self.tandem, files: ["party.mp4", "two.mp4"]),
                                                .playlistIndex(user: Self.tandem, index: 0)])
        // Once only.
        #expect(Self.playlistLines(bridge.received([.set([.file(Self.file)])], now: 4)).isEmpty)
    }

    @Test func anotherFileKeepsItsOwnPlaylist() {
        var bridge = Self.joined()
        let other = SyncplayFile(name: "other.mkv", duration: 30, size: .bytes(5))
        #expect(Self.playlistLines(bridge.received([.set([.file(other)])], now: 3)).isEmpty)
        // Its index is its own: no party command.
        #expect(bridge.received([.set([.playlistIndex(user: nil, index: 1)])], now: 4).isEmpty)
    }

    @Test func aChoiceIsAnItemCommandAndARefusalPutsItBack() {
        var bridge = Self.joined()
        _ = bridge.received([.set([.file(Self.file)])], now: 3)
        #expect(bridge.received([.set([.playlistIndex(user: nil, index: 1)])], now: 4) == [.party(.command(Command(id: 1, action: .item, value: 1)))])
        let refused = bridge.fromParty(.refused(Refused(id: 1, reason: "only the host can change the item in this party (control: host)")), now: 4.1)
        #expect(Self.playlistLines(refused) == [.playlistIndex(user: Self.tandem, index: 0)])
        #expect(refused.contains(.syncplay(.chat(SyncplayChat(username: Self.tandem,
                                                               message: "refused: only the host can change the item in this party (control: host)")))))
        // An entry the party does not have: put back too.
        #expect(Self.playlistLines(bridge.received([.set([.playlistIndex(user: nil, index: 7)])], now: 5))
            == [.playlistIndex(user: Self.tandem, index: 0)])
        // Its edits are answered with the party's playlist.
        #expect(Self.playlistLines(bridge.received([.set([.playlistChange(user: nil, files: ["x.mp4"])])], now: 6))
            == [.playlistChange(user: Self.tandem, files: ["party.mp4", "two.mp4"]), .playlistIndex(user: Self.tandem, index: 0)])
    }

    @Test func thePartysItemChangeIsAnIndexByWhoeverMadeItButNotTheClientsOwn() {
        var bridge = Self.joined()
        _ = bridge.received([.set([.file(Self.file)])], now: 3)
        let byHana = Timeline(epoch: 2, item: 1, position: 0, partyTime: 4.5, playing: false, jump: true, reason: "Hana: item")
        #expect(Self.playlistLines(bridge.fromParty(.timeline(byHana), now: 4)).isEmpty)
        // At the epoch's instant, with the seek.
        #expect(Self.playlistLines(bridge.timelineDue(epoch: 2, now: 4.5)) == [.playlistIndex(user: "Hana", index: 1)])

        _ = bridge.received([.set([.playlistIndex(user: nil, index: 0)])], now: 5)
        let byAmy = Timeline(epoch: 3, item: 0, position: 0, partyTime: 6.5, playing: false, jump: true, reason: "amy (Syncplay): item")
        #expect(Self.playlistLines(bridge.fromParty(.timeline(byAmy), now: 6) + bridge.timelineDue(epoch: 3, now: 6.5)).isEmpty)
    }
}
