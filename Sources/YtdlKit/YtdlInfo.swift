import Foundation

/// What `yt-dlp -J` (with `--flat-playlist`) says about a link: a video with its formats, a
/// playlist of entries, or a reference to another link still to be resolved (a flat playlist's
/// entry). Only the fields Tandem uses are kept; every other field is ignored.
public struct YtdlInfo: Sendable, Equatable, Decodable {
    public enum Kind: Sendable, Equatable {
        /// One video (`_type` `video` or absent): its ``formats``.
        case video
        /// Several (`playlist`, `multi_video`): its ``entries``.
        case playlist
        /// A link to resolve in turn (`url`, `url_transparent`): ``url``.
        case reference
    }

    /// What it is.
    public var kind: Kind
    /// The site's ID for it.
    public var id: String?
    /// The page's title for it.
    public var title: String?
    /// Seconds, when the page says.
    public var duration: Double?
    /// The page this came from (a playlist entry's own page).
    public var webpageURL: String?
    /// A reference's target.
    public var url: String?
    /// A video's formats in yt-dlp's own order, worst first (a video described by one format at
    /// its top level, as some extractors answer, has that one).
    public var formats: [YtdlFormat]
    /// A playlist's entries (unavailable ones, which yt-dlp writes as `null`, left out).
    public var entries: [YtdlInfo]
    /// A live stream.
    public var isLive: Bool

    /// An answer with the fields given (tests).
    public init(kind: Kind, id: String? = nil, title: String? = nil, duration: Double? = nil, webpageURL: String? = nil,
                url: String? = nil, formats: [YtdlFormat] = [], entries: [YtdlInfo] = [], isLive: Bool = false) {
        self.kind = kind
        self.id = id
        self.title = title
        self.duration = duration
        self.webpageURL = webpageURL
        self.url = url
        self.formats = formats
        self.entries = entries
        self.isLive = isLive
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        let type = c.string("_type") ?? "video"
        switch type {
        case "playlist", "multi_video": kind = .playlist
        case "url", "url_transparent": kind = .reference
        default: kind = .video
        }
        id = c.string("id")
        title = c.string("title")
        duration = c.number("duration")
        webpageURL = c.string("webpage_url")
        url = c.string("url")
        isLive = c.bool("is_live") ?? false
        entries = kind == .playlist ? c.lossyArray("entries", of: YtdlInfo.self) ?? [] : []
        if kind == .video {
            formats = c.lossyArray("formats", of: YtdlFormat.self) ?? []
            if formats.isEmpty, let single = try? YtdlFormat(from: decoder) { formats = [single] }
        } else {
            formats = []
        }
    }

    /// Why an answer is not a usable info dictionary.
    public struct DecodeFailure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Decodes yt-dlp's standard output.
    public static func decode(_ data: some Collection<UInt8>) throws(DecodeFailure) -> YtdlInfo {
        let bytes = Data(data)
        let text = String(decoding: bytes.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text != "null" else { throw DecodeFailure(description: "yt-dlp printed no information") }
        do {
            return try JSONDecoder().decode(YtdlInfo.self, from: bytes)
        } catch {
            throw DecodeFailure(description: "yt-dlp's answer is not the JSON expected (\(Self.explain(error)))")
        }
    }

    private static func explain(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?: context.debugDescription
        case .typeMismatch(_, let context)?: "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "\(error)"
        }
    }
}
