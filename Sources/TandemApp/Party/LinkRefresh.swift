import FFmpegKit
import PartyKit

/// When the host of a party of page links asks yt-dlp for a page again: a video site's media links
/// expire after hours, and a member whose player is then refused the item's link (HTTP 403 or
/// another 4xx, as `play` re-resolves on) says so in its presence. The host resolves that item's
/// page once more and gives the party the new link (``ItemURL``), which every member opens.
///
/// A pure decision over what the host's member sees; the host's session asks yt-dlp and sends.
package struct LinkRefresh: Sendable {
    /// The page each item came from (nil: a file, a direct URL, or a page entry that is its media URL
    /// itself, which asking again would not change).
    package let pages: [String?]
    /// When each item's page was last asked for again (host seconds).
    private var asked: [Int: Double] = [:]

    /// At most one new link per item in this long: a page whose new link is refused too (the site
    /// refuses this network, not an old link) is not asked again and again; a link that expires
    /// again hours later is.
    package static let cooldown = 60.0

    package init(pages: [String?]) { self.pages = pages }

    /// The pages of `sources`, in item order.
    package init(sources: [PartySource]) {
        self.init(pages: sources.map { source in
            guard case .page(let media) = source, media.format != nil, media.link != media.url else { return nil }
            return media.link
        })
    }

    /// Whether anyone can ever be asked for.
    package var isEmpty: Bool { pages.allSatisfy { $0 == nil } }

    /// The item whose page to ask again now, and that page: `item` (the party's) when a participant
    /// cannot play it because its link was refused, and it was not asked for within ``cooldown``.
    package mutating func due(item: Int?, participants: [ParticipantInfo], now: Double) -> (item: Int, page: String)? {
        guard let item, pages.indices.contains(item), let page = pages[item] else { return nil }
        let refused = participants.contains { info in
            guard let presence = info.presence, presence.state == .unavailable, let problem = presence.problem else { return false }
            return OpenError.isHTTPRefusal(problem)
        }
        guard refused else { return nil }
        if let last = asked[item], now - last < Self.cooldown { return nil }
        asked[item] = now
        return (item, page)
    }
}
