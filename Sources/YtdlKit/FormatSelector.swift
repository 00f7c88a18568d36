/// Chooses the format to play from a page's formats by a ``FormatSpec``, among those the player
/// can play (``Playability``).
///
/// As in yt-dlp, "best" is the last in yt-dlp's own order of the formats (it lists them worst
/// first, by its knowledge of each site), and the alternatives are tried in order. `best`/`worst`
/// (video and sound in one format) take any format when the page has no such format at all (every
/// format is video-only, or every one sound-only), as yt-dlp's do.
///
/// Tandem opens one input per item, so a merge `VIDEO+AUDIO` whose video has no sound of its own is
/// played as the best single format with both that meets the filters of both sides (the worst,
/// for `worstvideo+…`): ``FormatSelection/unmerged`` says what the merge would have been.
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
        var separateOnly: FormatSelection.Merge?
        for choice in spec.alternatives {
            switch choice {
            case .single(let selector):
                if let format = pick(selector, from: playable) { return FormatSelection(format: format, choice: choice) }
            case .merge(let videoSide, let audioSide):
                guard let video = pick(videoSide, from: playable) else { continue }
                if video.hasAudio { return FormatSelection(format: video, choice: choice) }
                guard let audio = pick(audioSide, from: playable) else { continue }
                let merge = FormatSelection.Merge(video: video, audio: audio)
                let filters = videoSide.filters + audioSide.filters
                let combined = playable.filter { format in
                    format.hasVideo && format.hasAudio && filters.allSatisfy { $0.admits(format) }
                }
                let worst = if case .ranked(.worst, _) = videoSide.target { true } else { false }
                if let format = worst ? combined.first : combined.last {
                    return FormatSelection(format: format, choice: choice, unmerged: merge)
                }
                separateOnly = separateOnly ?? merge
            }
        }
        if let separateOnly { throw .separateStreamsOnly(separateOnly) }
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
    /// What a merge would have played together.
    public struct Merge: Sendable, Equatable {
        /// The video-only format chosen by the merge's first side, and the sound of its second.
        public var video: YtdlFormat
        public var audio: YtdlFormat

        /// The merge of `video` and `audio`.
        public init(video: YtdlFormat, audio: YtdlFormat) {
            self.video = video
            self.audio = audio
        }
    }

    /// The format to play.
    public var format: YtdlFormat
    /// The alternative of the spec that chose it.
    public var choice: FormatSpec.Choice
    /// Set when a merge of separate video and sound was played as ``format`` instead (one input per item).
    public var unmerged: Merge?

    /// `format`, chosen by `choice` (in place of the merge `unmerged`, if set).
    public init(format: YtdlFormat, choice: FormatSpec.Choice, unmerged: Merge? = nil) {
        self.format = format
        self.choice = choice
        self.unmerged = unmerged
    }

    /// The line said when a merge was played as one format, or nil.
    public var fallbackNote: String? {
        guard let unmerged else { return nil }
        return "\(choice) is separate video (\(unmerged.video.formatID)) and sound (\(unmerged.audio.formatID)); "
            + "Tandem plays one input per item: playing \(format.summary), the best with both"
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
    /// Only a merge of separate video and sound would play, and there is no single format with both.
    case separateStreamsOnly(FormatSelection.Merge)

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
        case .separateStreamsOnly(let merge):
            return "the page has video (\(merge.video.formatID)) and sound (\(merge.audio.formatID)) only as separate formats, "
                + "and Tandem plays one input per item"
        }
    }
}
