/// One item of a party: what it is called, where every member can open it, and what it is — so a
/// member with a copy of its own can tell whether that copy is the same content.
public struct MediaItem: Sendable, Codable, Equatable {
    /// For people and for finding a local copy: the host's file name ("party.mp4"), or the last
    /// path component of a URL item.
    public var title: String
    /// An http(s) or HLS URL every member opens itself; nil: the party serves the host's file at
    /// `/party/ID/media/N` (see ``MediaPath``).
    public var url: String?
    public var identity: MediaIdentity
    /// A live stream (protocol 7): its positions are the stream's timestamps minus the party's
    /// origin (``LiveOrigin``); nil: an item with a start and an end.
    public var live: LiveOrigin?
    /// A URL item's sound as a stream of its own (protocol 9): a web page's separate sound format,
    /// which every member opens beside ``url`` and plays on one clock with it. Its streams are in
    /// ``identity`` after ``url``'s.
    public var audioURL: String?
    /// HTTP headers every member sends with its requests for ``url`` and ``audioURL`` (protocol 9): a
    /// web page's `Referer` and `User-Agent`, which sites check. Never a cookie: the host's are its own.
    public var headers: [String: String]?

    public init(title: String, url: String? = nil, identity: MediaIdentity, live: LiveOrigin? = nil, audioURL: String? = nil,
                headers: [String: String]? = nil) {
        self.title = title
        self.url = url
        self.identity = identity
        self.live = live
        self.audioURL = audioURL
        self.headers = headers
    }

    /// Whether every member may be asked to open `url`: party items are http(s) (each member opens the
    /// URL itself).
    public static func isPartyURL(_ url: String) -> Bool {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        return (scheme == "http" || scheme == "https") && url.contains("://")
    }

    /// This item read at `change`'s address (``ItemURL``): its title and identity stay.
    public func moved(to change: ItemURL) -> MediaItem {
        var moved = self
        moved.url = change.url
        moved.audioURL = change.audioURL
        moved.headers = change.headers
        return moved
    }

    /// Headers a party item may carry (``headers``): what pages' media are checked by, and no cookie.
    public static let sharedHeaderNames: Set<String> = ["user-agent", "referer"]

    /// `headers` without those a party does not pass on (``sharedHeaderNames``); nil when none is left.
    public static func shared(_ headers: [String: String]) -> [String: String]? {
        let kept = headers.filter { sharedHeaderNames.contains($0.key.lowercased()) && !$0.value.contains(where: \.isNewline) }
        return kept.isEmpty ? nil : kept
    }

    /// Whether the party serves this item's bytes (a host's local file).
    public var isServed: Bool { url == nil }
}
