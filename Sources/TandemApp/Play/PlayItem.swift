import FFmpegKit
import YtdlKit

/// One item of `tandem play`'s playlist: a file or URL the player opens as it is, or a video of a
/// page link, resolved by yt-dlp (``PageLinkResolver``) when it is listed or when its turn comes.
package struct PlayItem: Sendable, Equatable {
    /// Where the player opens the item.
    package enum Source: Sendable, Equatable {
        /// ``PlayItem/name`` itself: a file, or a URL of direct media.
        case direct
        /// A video of a page link.
        case page(PageEntry)
    }

    /// What the viewer knows it by: the file or URL given, or the video's page link. Messages and
    /// watch-later positions use it (never the media URL a page resolves to, which changes).
    package var name: String
    package var source: Source

    package init(name: String, source: Source = .direct) {
        self.name = name
        self.source = source
    }

    /// What the player would open, as far as known now (nil: a page's video not resolved yet).
    package var opening: String? {
        switch source {
        case .direct: name
        case .page(.media(let media)): media.url
        case .page: nil
        }
    }

    /// The page's title for it, if it is a page's video.
    package var title: String? {
        if case .page(let entry) = source { entry.title } else { nil }
    }

    /// What to open for the item now.
    package struct Target: Sendable, Equatable {
        /// What the player opens.
        package var url: String
        /// The page's title (nil for a file or direct URL).
        package var title: String?
        /// The page's duration, when it says.
        package var duration: Double?
        /// The page's separate sound, played beside ``url`` (``PageMedia/audioURL``).
        package var audioURL: String?
        /// What the player sends with its requests (``PageMedia/headers``).
        package var headers: [String: String] = [:]

        /// libavformat's options for opening it.
        package var inputOptions: [String: String] { InputFile.options(sending: headers) }
    }

    /// The command's arguments as items: folders as their media files, page links (when `resolver`
    /// is given) as their videos, listed by yt-dlp now; a page that gives nothing is one item that
    /// fails with the reason when its turn comes, as a file that does not open, unless it opens as
    /// media itself (``DirectFallback``).
    package static func items(_ arguments: [String], resolver: PageLinkResolver?) async throws(PlaylistItems.EmptyFolder) -> [PlayItem] {
        var items: [PlayItem] = []
        for argument in try PlaylistItems.expand(arguments) {
            guard let resolver, LinkKind(of: argument) == .page else {
                items.append(PlayItem(name: argument))
                continue
            }
            do throws(PageLinkError) {
                let listing = try await resolver.listing(argument)
                items += listing.entries.map { entry in PlayItem(name: Self.name(of: entry, in: argument), source: .page(entry)) }
            } catch {
                switch await DirectFallback.decide(argument, after: error) {
                case .openDirectly: items.append(PlayItem(name: argument))
                case .fail(let error): items.append(PlayItem(name: argument, source: .page(.unplayable(error))))
                }
            }
        }
        return items
    }

    /// The name of a page's entry: its own page or media URL, else the page link.
    private static func name(of entry: PageEntry, in link: String) -> String {
        switch entry {
        case .media(let media): media.link
        case .page(let page, _, _): page
        case .unplayable(let error): error.link
        }
    }

    /// Every item fails before it is opened (each page link gave nothing): their reasons.
    package static func failures(_ items: [PlayItem]) -> [PageLinkError]? {
        let failures = items.compactMap { item -> PageLinkError? in
            if case .page(.unplayable(let error)) = item.source { error } else { nil }
        }
        return failures.count == items.count ? failures : nil
    }

    /// The item ready to open: a page entry resolved now if it was not yet (and kept resolved).
    package mutating func target(resolver: PageLinkResolver?) async throws(PageLinkError) -> Target {
        guard case .page(let entry) = source else { return Target(url: name) }
        guard let resolver else {
            if case .media(let media) = entry { return Target(media) }
            if case .unplayable(let error) = entry { throw error }
            return Target(url: name)
        }
        let media = try await resolver.resolve(entry)
        source = .page(.media(media))
        return Target(media)
    }

    /// After the player was refused its media URL (an HTTP 403 or 410, as a site answers a link that
    /// has expired): the item's page resolved again, once. Nil when there is no page to ask again (a
    /// file, a direct URL, a feed's enclosure) or when this is not such a refusal.
    package mutating func refreshed(after error: OpenError, resolver: PageLinkResolver?) async throws(PageLinkError) -> Target? {
        guard let resolver, error.isHTTPRefusal, case .page(.media(let media)) = source, media.format != nil,
              media.link != media.url else { return nil }
        printError("\(media.link): \(error.reason): its link may have expired, asking yt-dlp again")
        source = .page(.page(link: media.link, title: media.title, duration: media.duration))
        return try await target(resolver: resolver)
    }
}

extension PlayItem.Target {
    init(_ media: PageMedia) {
        self.init(url: media.url, title: media.title, duration: media.duration, audioURL: media.audioURL, headers: media.headers)
    }
}
