/// A URL item's new address (protocol 9), sent by the host when its old one was refused (a video
/// site's media links expire after hours: the host asks yt-dlp for the page again), and passed on by
/// the server to every member, who opens it in place of the old one. The item stays what it was
/// (title, identity): only where it is read changes.
///
/// Only the host may send it, only for an item with a `url`, and only with http(s) URLs (what every
/// member may be asked to open is what the host could make an item of in the first place).
public struct ItemURL: Sendable, Codable, Equatable {
    /// The item (0-based index in the party's items).
    public var item: Int
    public var url: String
    /// Its sound as a stream of its own (``MediaItem/audioURL``), or nil.
    public var audioURL: String?
    /// What members send with their requests for it (``MediaItem/headers``), or nil.
    public var headers: [String: String]?

    public init(item: Int, url: String, audioURL: String? = nil, headers: [String: String]? = nil) {
        self.item = item
        self.url = url
        self.audioURL = audioURL
        self.headers = headers
    }

    /// Longest URL accepted (characters): a signed video-site link is 1–2 KB.
    public static let maxURLLength = 8192

    /// Why the server refuses it for `items`, or nil.
    public func problem(items: [MediaItem]) -> String? {
        guard items.indices.contains(item) else { return "no such item" }
        guard items[item].url != nil else { return "item \(item + 1) is the host's file, served by the party: it has no URL to change" }
        for link in [url] + (audioURL.map { [$0] } ?? []) {
            guard link.count <= Self.maxURLLength else { return "a URL longer than \(Self.maxURLLength) characters" }
            guard MediaItem.isPartyURL(link) else { return "only http and https URLs can be party items" }
        }
        if let headers {
            if MediaItem.shared(headers) != headers { return "only Referer and User-Agent headers can be shared" }
            if headers.reduce(0, { $0 + $1.key.count + $1.value.count }) > Self.maxURLLength {
                return "headers longer than \(Self.maxURLLength) characters"
            }
        }
        return nil
    }
}
