/// Chooses the format to play from a page's formats by a ``FormatSpec``, among those the player
/// can play (``Playability``).
///
/// As in yt-dlp, "best" is the last in yt-dlp's own order of the formats (it lists them worst
/// first, by its knowledge of each site), and the alternatives are tried in order. `best`/`worst`
/// (video and sound in one format) take any format when the page has no such format at all (every
/// format is video-only, or every one sound-only), as yt-dlp's do.
///
/// A merge `VIDEO+AUDIO` whose video has no sound of its own plays both formats as one item (two
/// inputs on one clock, as mpv plays yt-dlp's merges): ``FormatSelection/audio`` is the sound's.
public enum FormatSelector {
    /// The format `spec` chooses among `formats` (in yt-dlp's order) that `playability` lets through,
    /// or why none.
    public static func select(_ spec: FormatSpec, from formats: [YtdlFormat],
                              playability: Playability = Playability()) throws(FormatSelectionFailure) -> FormatSelection {
        guard !formats.isEmpty else { throw .noFormats }
        let playable = formats.filter { playability.problem(with: $0) == nil }
        guard !playable.isEmpty else {
            throw .nothingPlayable(formats.compactMap { playability.problem(with: $0) })
        }
        for choice in spec.alternatives {
            switch choice {
            case .single(let selector):
                if let format = pick(selector, from: playable) { return FormatSelection(format: format, choice: choice) }
            case .merge(let videoSide, let audioSide):
                guard let video = pick(videoSide, from: playable) else { continue }
                if video.hasAudio { return FormatSelection(format: video, choice: choice) }
                guard let audio = pick(audioSide, from: playable) else { continue }
                return FormatSelection(format: video, choice: choice, audio: audio)
            }
        }
        throw .noMatch(spec, available: playable)
    }

    /// The format `selector` names among `formats` (all playable), or nil.
    static func pick(_ selector: FormatSpec.Selector, from formats: [YtdlFormat]) -> YtdlFormat? {
        let candidates = formats.filter { format in selector.filters.allSatisfy { $0.admits(format) } }
        switch selector.target {
        case .formatID(let id):
            return candidates.last { $0.formatID == id }
        case .ext(let ext):
            let needsVideo = FormatSpecParser.videoExtensions.contains(ext)
            return candidates.last { $0.ext?.lowercased() == ext && $0.hasAudio && (!needsVideo || $0.hasVideo) }
        case .ranked(let rank, let content):
            var kept = candidates.filter { admits(content, $0) }
            // yt-dlp's `best` on a page with no complete format: the best of what there is.
            if content == .videoAndAudio, kept.isEmpty,
               formats.allSatisfy({ !$0.hasVideo }) || formats.allSatisfy({ !$0.hasAudio }) {
                kept = candidates
            }
            return rank == .best ? kept.last : kept.first
        }
    }

    static func admits(_ content: FormatSpec.Content, _ format: YtdlFormat) -> Bool {
        switch content {
        case .videoAndAudio: format.hasVideo && format.hasAudio
        case .any: format.hasVideo || format.hasAudio
        case .videoOnly: format.hasVideo && !format.hasAudio
        case .video: format.hasVideo
        case .audioOnly: format.hasAudio && !format.hasVideo
        case .audio: format.hasAudio
        }
    }
}

/// The format chosen, and how.
public struct FormatSelection: Sendable, Equatable {
    /// The format to play (a merge's video).
    public var format: YtdlFormat
    /// The alternative of the spec that chose it.
    public var choice: FormatSpec.Choice
    /// A merge's sound, a format of its own played beside ``format``; nil when ``format`` is all.
    public var audio: YtdlFormat?

    /// `format`, chosen by `choice`, with the separate sound `audio` if a merge chose one.
    public init(format: YtdlFormat, choice: FormatSpec.Choice, audio: YtdlFormat? = nil) {
        self.format = format
        self.choice = choice
        self.audio = audio
    }

    /// What is played, in yt-dlp's words: `400 mp4 …+251 webm …` for a merge.
    public var summary: String {
        audio.map { "\(format.summary)+\($0.summary)" } ?? format.summary
    }
}

/// Why no format was chosen (``description``: the reason, without the link).
public enum FormatSelectionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The page lists no formats at all.
    case noFormats
    /// Formats, none of which the player can play: each one's problem.
    case nothingPlayable([String])
    /// Playable formats, none of which the spec selects.
    case noMatch(FormatSpec, available: [YtdlFormat])

    /// How many formats are listed by name in a message.
    static let listedFormats = 6

    /// The reason, for the line that names the link.
    public var description: String {
        switch self {
        case .noFormats:
            return "the page lists no formats"
        case .nothingPlayable(let problems):
            var counts: [String: Int] = [:]
            for problem in problems { counts[problem, default: 0] += 1 }
            let order = problems.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let parts = order.map { counts[$0]! > 1 ? "\(counts[$0]!) \($0)" : $0 }
            return "no format Tandem can play (\(problems.count) formats: \(parts.joined(separator: ", ")))"
        case .noMatch(let spec, let available):
            let shown = available.suffix(Self.listedFormats).reversed().map(\.summary)
            let more = available.count > Self.listedFormats ? ", …" : ""
            return "no format matches --ytdl-format \"\(spec)\" (playable: \(shown.joined(separator: ", "))\(more))"
        }
    }
}
