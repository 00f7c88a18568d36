import Testing
@testable import PartyKit

/// A URL item's new address (`itemURL`, protocol 9): only the host gives one, only for a URL item,
/// only http(s); the server keeps it and passes it to everyone; a member opens the item playing
/// again at the new address, where the party is.
@Suite struct ItemURLTests {
    static let film = MediaItem(title: "A Film", url: "https://cdn.example/old.mp4",
                                identity: MediaIdentity(duration: 60, streams: ["video h264 640x360"]))
    static let config = PartyConfig(items: [film, "extra.mkv"])
    static let fresh = ItemURL(item: 0, url: "https://cdn.example/new.mp4", audioURL: "https://cdn.example/new.m4a")

    @Test func theHostsNewLinkReachesEveryoneAndLaterJoiners() {
        let h = ServerHarness()
        h.standardParty(Self.config)
        let out = h.send(1, .itemURL(Self.fresh), at: 3)
        #expect(out.recipients(of: .itemURL(Self.fresh)) == [1, 2])
        let welcome = h.join(3, name: "Carol", at: 4)
        #expect(welcome?.config.items[0].url == Self.fresh.url && welcome?.config.items[0].audioURL == Self.fresh.audioURL)
        #expect(welcome?.config.items[0].title == "A Film" && welcome?.config.items[1] == "extra.mkv")
    }

    @Test(arguments: [
        (2, fresh, "only the host can change an item's URL"),
        (1, ItemURL(item: 1, url: "https://cdn.example/x.mkv"), "item URL: item 2 is the host's file, served by the party: it has no URL to change"),
        (1, ItemURL(item: 5, url: "https://cdn.example/x.mp4"), "item URL: no such item"),
        (1, ItemURL(item: 0, url: "file:///etc/passwd"), "item URL: only http and https URLs can be party items"),
        (1, ItemURL(item: 0, url: "https://cdn.example/v.mp4", audioURL: "rtmp://a/b"), "item URL: only http and https URLs can be party items"),
        (1, ItemURL(item: 0, url: "https://a/" + String(repeating: "x", count: ItemURL.maxURLLength)), "item URL: a URL longer than 8192 characters"),
    ])
    func aChangeThatCannotBeIsRefusedToItsSenderAlone(sender: Int, change: ItemURL, reason: String) {
        let h = ServerHarness()
        h.standardParty(Self.config)
        let out = h.send(sender, .itemURL(change), at: 3)
        #expect(out.allSent.map(\.0) == [sender])
        #expect(out.messages(to: sender) == [.refused(Refused(id: 0, reason: reason))])
        #expect(h.join(3, name: "Carol", at: 4)?.config.items[0].url == Self.film.url)
    }

    @Test func aMemberOpensTheItemPlayingAgainAtTheNewLink() throws {
        let h = MemberHarness.participant()
        let first = try #require(h.join(timeline: Timeline(epoch: 1, partyTime: h.party(0), playing: true), config: Self.config))
        #expect(first.item == 0)
        h.set(now: 10)
        let out = h.receive(.itemURL(Self.fresh))
        #expect(h.core.config?.items[0].url == Self.fresh.url && h.core.config?.items[0].audioURL == Self.fresh.audioURL)
        #expect(out.first == .notice(.media("A Film: the host found a new link for it, opening that")))
        let seek = try #require(out.seeks.first)
        // Where the party is by the time it can be ready (the timeline plays from 0 at party time 0).
        #expect(seek.item == 0 && seek.epoch == 1 && seek.playing)
        #expect(abs(seek.position - (seek.at)) < 1e-6, "\(seek)")
        // The same link again changes nothing.
        #expect(h.receive(.itemURL(Self.fresh)).isEmpty)
    }

    @Test func anotherItemsNewLinkWaitsForItsTurnAndAServedItemHasNone() throws {
        let items = PartyConfig(items: [Self.film, Self.film, "extra.mkv"])
        let h = MemberHarness.participant()
        _ = try #require(h.join(timeline: Timeline(epoch: 1, partyTime: h.party(0), playing: true), config: items))
        let out = h.receive(.itemURL(ItemURL(item: 1, url: "https://cdn.example/two.mp4")))
        #expect(out.seeks.isEmpty && h.core.config?.items[1].url == "https://cdn.example/two.mp4")
        #expect(h.receive(.itemURL(ItemURL(item: 2, url: "https://cdn.example/three.mp4"))).isEmpty)
        #expect(h.core.config?.items[2].url == nil)
    }

    @Test func onlyAPagesRefererAndUserAgentAreShared() {
        #expect(MediaItem.shared(["Referer": "https://a/p", "user-agent": "UA", "Cookie": "session=secret", "X-Forwarded-For": "192.0.2.1"])
                == ["Referer": "https://a/p", "user-agent": "UA"])
        #expect(MediaItem.shared(["Cookie": "session=secret"]) == nil)
        #expect(ItemURL(item: 0, url: "https://a/b.mp4", headers: ["Cookie": "x"]).problem(items: Self.config.items)
                == "only Referer and User-Agent headers can be shared")
        #expect(ItemURL(item: 0, url: "https://a/b.mp4", headers: ["Referer": "https://a/p"]).problem(items: Self.config.items) == nil)
    }

    @Test func itSurvivesTheWire() throws {
        let text = PartyProtocol.encode(.itemURL(Self.fresh))
        #expect(text.contains(#""type":"itemURL""#))
        #expect(try PartyProtocol.decode(text) == .itemURL(Self.fresh))
        #expect(try PartyProtocol.decode(#"{"type":"itemURL","item":0,"url":"https://a/b.mp4"}"#) == .itemURL(ItemURL(item: 0, url: "https://a/b.mp4")))
    }
}
