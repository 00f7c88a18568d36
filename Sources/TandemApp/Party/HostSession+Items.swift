import FFmpegKit
import Foundation
import TandemBase
import PartyClient
import PartyKit

extension HostSession {
    /// Bytes of JSON the party's items may take together: the host's hello and every member's
    /// welcome carry them in one message of at most `PartyProtocol.maxMessageBytes`, beside the
    /// participants and recent chat. Half of it leaves those room; a playlist page's media links
    /// (a video site's run to 1–2 KB each) reach it at a few dozen videos.
    package static let itemsBudget = PartyProtocol.maxMessageBytes / 2

    /// Item index → absolute path, for the items that are local files.
    package static func localFiles(_ sources: [PartySource]) -> [Int: String] {
        var out: [Int: String] = [:]
        for (index, source) in sources.enumerated() {
            if case .file(let file) = source { out[index] = URL(fileURLWithPath: file).standardizedFileURL.path }
        }
        return out
    }

    /// ``items(_:)-([PartySource])`` of files and URLs of media as given.
    package static func items(_ files: [String]) throws -> [MediaItem] {
        try items(files.map { $0.contains("://") ? PartySource.url($0) : .file($0) })
    }

    /// The party's items, in order: a local file (served by the party, identified by size, layout
    /// and sampled hash), an http(s)/HLS URL every member opens itself (identified by duration
    /// and layout), or a page's video: the URL of the format the host chose, titled as the page.
    /// Throws the first failure naming its file, URL or page: one that cannot be opened, a server
    /// without byte ranges (members must seek), a URL of another scheme. Opening blocks on I/O:
    /// ``identified(_:)`` runs this on a thread of its own.
    /// A live stream's item holds `liveDelay` seconds behind its edge (nil: three segments).
    package static func items(_ sources: [PartySource], liveDelay: Double? = nil) throws -> [MediaItem] {
        try sources.map { source in
            switch source {
            case .file(let file):
                return MediaItem(title: URL(fileURLWithPath: file).lastPathComponent,
                                 identity: try MediaIdentification.identify(file: file))
            case .url(let url):
                try requireHTTP(url, named: url)
                let title = URL(string: url)?.lastPathComponent ?? ""
                let examined = try MediaIdentification.examine(url: url, liveDelay: liveDelay)
                return MediaItem(title: title.isEmpty ? url : title, url: url, identity: examined.identity, live: examined.live)
            case .page(let media):
                try requireHTTP(media.url, named: media.link)
                if let audio = media.audioURL { try requireHTTP(audio, named: media.link) }
                var examined: (identity: MediaIdentity, live: LiveOrigin?)
                do throws(OpenError) {
                    examined = try MediaIdentification.examine(url: media.url, audioURLs: media.audioURL.map { [$0] } ?? [],
                                                               inputOptions: InputFile.options(sending: MediaItem.shared(media.headers) ?? [:]),
                                                               liveDelay: liveDelay)
                } catch {
                    throw OpenError(url: media.link, reason: error.reason)
                }
                if examined.identity.duration == 0, examined.live == nil, let duration = media.duration { examined.identity.duration = duration }
                return MediaItem(title: media.title, url: media.url, identity: examined.identity, live: examined.live,
                                 audioURL: media.audioURL, headers: MediaItem.shared(media.headers))
            }
        }
    }

    /// ``items(_:)-([PartySource])`` on a thread of its own, off the cooperative pool.
    package static func identified(_ sources: [PartySource], liveDelay: Double? = nil) async throws -> [MediaItem] {
        try await OwnThread.run { try items(sources, liveDelay: liveDelay) }
    }

    /// The items that fit in a party message (``itemsBudget``), in order; the rest are left out,
    /// saying so through `say`. Throws when not even the first fits.
    package static func fitting(_ items: [MediaItem], say: (String) -> Void) throws -> [MediaItem] {
        let encoder = JSONEncoder()
        var total = 0
        for (index, item) in items.enumerated() {
            total += ((try? encoder.encode(item))?.count ?? 0) + 1
            guard total > itemsBudget else { continue }
            guard index > 0 else {
                throw OpenError(url: item.url ?? item.title, reason: "too long to be a party item (more than \(itemsBudget >> 10) KiB)")
            }
            say("the party holds the first \(index) of \(items.count) items: their links fill a party message (\(itemsBudget >> 10) KiB)")
            return Array(items.prefix(index))
        }
        return items
    }

    /// Party items are http(s): every member opens the URL itself.
    private static func requireHTTP(_ url: String, named name: String) throws {
        guard !MediaItem.isPartyURL(url) else { return }
        let what = name == url ? "" : " (its format is \(url.prefix { $0 != ":" }.lowercased()))"
        throw OpenError(url: name, reason: "only http and https URLs can be party items (every member opens the URL itself)\(what)")
    }
}

extension HostSession {
    /// How often the host looks for a member refused an item's link.
    static let refreshCheckInterval: Duration = .seconds(1)

    /// Gives the party a new link for an item of a page when a member's player is refused the old one
    /// (``LinkRefresh``): yt-dlp asks the page again, off the status path. Until cancelled.
    static func refreshLinks(_ refresh: LinkRefresh, member: PartyMember, resolver: PageLinkResolver) async {
        var refresh = refresh
        let clock = ContinuousClock()
        let start = clock.now
        while !Task.isCancelled {
            try? await Task.sleep(for: refreshCheckInterval)
            let status = await member.status
            let now = (clock.now - start) / .seconds(1)
            guard let (item, page) = refresh.due(item: status.item, participants: status.participants, now: now) else { continue }
            printError("\(page): the party's link to it was refused (expired?): asking yt-dlp again")
            do throws(PageLinkError) {
                let media = try await resolver.resolve(.page(link: page, title: nil, duration: nil))
                await member.changeItemURL(ItemURL(item: item, url: media.url, audioURL: media.audioURL, headers: MediaItem.shared(media.headers)))
            } catch {
                if !Task.isCancelled { printError(error.description) }  // the host is leaving: yt-dlp was stopped
            }
        }
    }
}
