/// A parsed `--ytdl-format` (mpv's option, yt-dlp's format selection syntax): alternatives tried
/// in order, each a selector or two merged (`bestvideo+bestaudio`). See ``FormatSpecParser`` for
/// the syntax supported and ``FormatSelector`` for how a page's formats are chosen from.
public struct FormatSpec: Sendable, Equatable, CustomStringConvertible {
    /// What Tandem uses without `--ytdl-format`: yt-dlp's own default (mpv passes none, so yt-dlp's
    /// applies): the best video, with sound, else the best video and the best sound merged, else
    /// the best single format.
    public static let defaultText = "bestvideo*+bestaudio/best"

    /// Which of several formats a selector keeps: the best (last in yt-dlp's order) or the worst.
    public enum Rank: Sendable, Equatable { case best, worst }

    /// What a selector like `bestvideo` requires of a format.
    public enum Content: Sendable, Equatable {
        /// `best`, `worst`: video and sound in one format (when the page has any such).
        case videoAndAudio
        /// `best*`, `b*`: anything with video or sound.
        case any
        /// `bestvideo`, `bv`: video without sound.
        case videoOnly
        /// `bestvideo*`, `bv*`: video, with or without sound.
        case video
        /// `bestaudio`, `ba`: sound without video.
        case audioOnly
        /// `bestaudio*`, `ba*`: sound, with or without video.
        case audio
    }

    /// What a selector names before its filters.
    public enum Target: Sendable, Equatable {
        /// `best`, `worstvideo`, `ba*`…
        case ranked(Rank, Content)
        /// A file extension yt-dlp knows as one (`mp4`, `webm`, `m4a`…): the best single format with it.
        case ext(String)
        /// A format ID (`22`, `hls-1080`).
        case formatID(String)
    }

    /// One selector: a target narrowed by filters (`best[height<=720][ext=mp4]`).
    public struct Selector: Sendable, Equatable, CustomStringConvertible {
        public var target: Target
        public var filters: [FormatFilter]
        /// How it was written, for messages.
        public var text: String

        /// A selector of `target` narrowed by `filters`, written `text`.
        public init(target: Target, filters: [FormatFilter] = [], text: String) {
            self.target = target
            self.filters = filters
            self.text = text
        }

        /// As it was written.
        public var description: String { text }
    }

    /// One alternative between `/`s.
    public enum Choice: Sendable, Equatable, CustomStringConvertible {
        /// One format.
        case single(Selector)
        /// `VIDEO+AUDIO`: two formats played together.
        case merge(Selector, Selector)

        /// As written (`bestvideo+bestaudio`).
        public var description: String {
            switch self {
            case .single(let selector): selector.text
            case .merge(let video, let audio): "\(video.text)+\(audio.text)"
            }
        }
    }

    /// Tried in order; the first that selects a playable format wins.
    public var alternatives: [Choice]

    /// A spec trying `alternatives` in order.
    public init(alternatives: [Choice]) { self.alternatives = alternatives }

    /// As written, without spaces (`bestvideo*+bestaudio/best`).
    public var description: String { alternatives.map(\.description).joined(separator: "/") }

    /// The default, parsed.
    public static let standard: FormatSpec = try! FormatSpecParser.parse(defaultText)
}
