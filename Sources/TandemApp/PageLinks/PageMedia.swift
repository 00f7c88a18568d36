import YtdlKit

/// A page's video resolved to what the player opens.
package struct PageMedia: Sendable, Equatable {
    /// Its page: the link given, or a playlist entry's own page (else its media URL).
    package var link: String
    /// The page's title for it.
    package var title: String
    /// Seconds, when the page says.
    package var duration: Double?
    /// What the player opens: the chosen format's URL.
    package var url: String
    /// The sound a merge chose as a format of its own (yt-dlp's `bestvideo+bestaudio` on a page
    /// with separate video and sound), played beside ``url`` on one clock; nil when ``url`` has all.
    package var audioURL: String?
    /// The format chosen (nil: a playlist entry that is direct media itself, as a feed's enclosure).
    package var format: YtdlFormat?
    /// What the player sends with its requests for ``url`` and ``audioURL`` (``YtdlFormat/playerHeaders``).
    package var headers: [String: String] = [:]

    package init(link: String, title: String, duration: Double? = nil, url: String, audioURL: String? = nil, format: YtdlFormat? = nil) {
        self.link = link
        self.title = title
        self.duration = duration
        self.url = url
        self.audioURL = audioURL
        self.format = format
        headers = format?.playerHeaders ?? [:]
    }
}

/// One video a page link gives.
package enum PageEntry: Sendable, Equatable {
    /// Resolved: ready to open.
    case media(PageMedia)
    /// Another page (an entry of a playlist, as yt-dlp lists them without visiting each), resolved
    /// when it is needed.
    case page(link: String, title: String?, duration: Double?)
    /// An entry that cannot be played, and why.
    case unplayable(PageLinkError)

    /// Its title, as far as known.
    package var title: String? {
        switch self {
        case .media(let media): media.title
        case .page(_, let title, _): title
        case .unplayable: nil
        }
    }
}

/// What a page link is: one video, or a playlist of them.
package struct PageListing: Sendable, Equatable {
    package var title: String?
    package var entries: [PageEntry]
    /// The page is a playlist (even of one entry).
    package var isPlaylist: Bool
}
