import PartyKit
import Testing
import TandemApp
import YtdlKit

/// When the host asks a page again for a new link: a participant refused the item's link, that item
/// came from a page, and not again within a minute.
@Suite struct LinkRefreshTests {
    static func member(_ name: String, _ presence: Presence?) -> ParticipantInfo {
        ParticipantInfo(id: name, name: name, role: .participant, joinedAt: 0, presence: presence)
    }
    static let refused = member("Bob", Presence(state: .unavailable, problem: "HTTP 403 forbidden"))
    static let gone = member("Eve", Presence(state: .unavailable, problem: "its sound: HTTP 4xx: the server refused the request"))
    static let watching = member("Ann", Presence(state: .watching, source: "url"))
    static let missing = member("Cy", Presence(state: .unavailable, problem: "HTTP 404 not found"))
    static let pages = ["https://video.example/watch?v=1", nil]

    @Test func aRefusedLinkOfAPagesItemIsAskedForOnceAMinute() {
        var refresh = LinkRefresh(pages: Self.pages)
        #expect(refresh.due(item: 0, participants: [Self.watching], now: 0) == nil)
        #expect(refresh.due(item: 0, participants: [Self.watching, Self.missing], now: 0) == nil, "a 404 is no expired link")
        let due = refresh.due(item: 0, participants: [Self.watching, Self.refused], now: 1)
        #expect(due?.item == 0 && due?.page == Self.pages[0])
        #expect(refresh.due(item: 0, participants: [Self.refused], now: 1 + LinkRefresh.cooldown - 1) == nil)
        #expect(refresh.due(item: 0, participants: [Self.gone], now: 1 + LinkRefresh.cooldown)?.item == 0)
    }

    @Test func anItemWithoutAPageIsNeverAskedFor() {
        var refresh = LinkRefresh(pages: Self.pages)
        #expect(refresh.due(item: 1, participants: [Self.refused], now: 0) == nil)
        #expect(refresh.due(item: nil, participants: [Self.refused], now: 0) == nil)
        #expect(refresh.due(item: 7, participants: [Self.refused], now: 0) == nil)
        #expect(!refresh.isEmpty && LinkRefresh(pages: [nil, nil]).isEmpty)
    }

    @Test func onlyAPagesChosenFormatHasAPageToAskAgain() {
        let format = YtdlFormat(formatID: "22", url: "https://cdn.example/22.mp4", protocol: "https")
        let page = PageMedia(link: "https://video.example/watch?v=1", title: "A", url: format.url, format: format)
        let enclosure = PageMedia(link: "https://feed.example/a.mp4", title: "B", url: "https://feed.example/a.mp4")
        let refresh = LinkRefresh(sources: [.page(page), .page(enclosure), .url("https://a/b.mp4"), .file("/f.mkv")])
        #expect(refresh.pages == ["https://video.example/watch?v=1", nil, nil, nil])
    }
}
