import Foundation

/// One format of a video as `yt-dlp -J` lists it: where its bytes are, how they are delivered, and
/// what is in them. Only the fields Tandem selects on are kept.
///
/// yt-dlp writes `"none"` for a codec a format does not have (a video-only format's `acodec`) and
/// leaves a codec it does not know out (the generic extractor's `<video src>`): an unknown codec may
/// be there, as yt-dlp itself counts it.
public struct YtdlFormat: Sendable, Equatable, Decodable {
    /// yt-dlp's name for it on this page (`22`, `hls-1080`): what a `--ytdl-format` of an ID names.
    public var formatID: String
    /// Where the player opens it (a media file, an HLS media playlist).
    public var url: String
    /// The file extension of its container (`mp4`, `webm`, `m4a`).
    public var ext: String?
    /// yt-dlp's delivery: `https`, `http`, `m3u8_native`, `m3u8`, `http_dash_segments`, `f4m`, `mhtml`…
    public var `protocol`: String?
    /// Video and audio codec as yt-dlp writes them (`avc1.64001F`, `opus`), `"none"`, or nil when unknown.
    public var vcodec: String?
    public var acodec: String?
    /// Picture size and frame rate.
    public var width: Double?
    public var height: Double?
    public var fps: Double?
    /// Total, video and audio bit rates (kbit/s).
    public var tbr: Double?
    public var vbr: Double?
    public var abr: Double?
    /// Audio sampling rate (Hz) and channels.
    public var asr: Double?
    public var audioChannels: Double?
    /// Size in bytes, exact or estimated.
    public var filesize: Double?
    public var filesizeApprox: Double?
    /// The sound's language (`en`).
    public var language: String?
    /// The container as yt-dlp names it (`mp4_dash`, `webm_dash`).
    public var container: String?
    /// `SDR`, `HDR10`, `HLG`…
    public var dynamicRange: String?
    /// The site's own words for it (`720p`, `DASH video`, `storyboard`).
    public var formatNote: String?
    /// Encrypted: no player without the keys plays it. yt-dlp also writes `"maybe"`, read as unknown.
    public var hasDRM: Bool?
    /// The HTTP headers yt-dlp says the format is fetched with (`http_headers`: a `User-Agent`, the
    /// page as `Referer`, a site's `Cookie`…).
    public var httpHeaders: [String: String] = [:]

    /// The headers a player sends for the format, as mpv's ytdl hook passes them: the `User-Agent`,
    /// and `Cookie`, `Referer` and `X-Forwarded-For` (what sites check); values with a line break are
    /// left out (they would add headers of their own).
    public var playerHeaders: [String: String] {
        httpHeaders.filter { name, value in
            Self.playerHeaderNames.contains(name.lowercased()) && !value.contains(where: \.isNewline)
        }
    }

    static let playerHeaderNames: Set<String> = ["user-agent", "cookie", "referer", "x-forwarded-for"]

    /// A format with the fields given (tests, hand-made lists); the others absent.
    public init(formatID: String, url: String, ext: String? = nil, protocol: String? = nil, vcodec: String? = nil,
                acodec: String? = nil, width: Double? = nil, height: Double? = nil, fps: Double? = nil, tbr: Double? = nil,
                vbr: Double? = nil, abr: Double? = nil, asr: Double? = nil, audioChannels: Double? = nil,
                filesize: Double? = nil, filesizeApprox: Double? = nil, language: String? = nil, container: String? = nil,
                dynamicRange: String? = nil, formatNote: String? = nil, hasDRM: Bool? = nil) {
        self.formatID = formatID
        self.url = url
        self.ext = ext
        self.protocol = `protocol`
        self.vcodec = vcodec
        self.acodec = acodec
        self.width = width
        self.height = height
        self.fps = fps
        self.tbr = tbr
        self.vbr = vbr
        self.abr = abr
        self.asr = asr
        self.audioChannels = audioChannels
        self.filesize = filesize
        self.filesizeApprox = filesizeApprox
        self.language = language
        self.container = container
        self.dynamicRange = dynamicRange
        self.formatNote = formatNote
        self.hasDRM = hasDRM
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        guard let url = c.string("url"), !url.isEmpty else {
            throw DecodingError.keyNotFound(FieldKey("url"), .init(codingPath: c.codingPath, debugDescription: "a format without a url"))
        }
        self.init(formatID: c.string("format_id") ?? c.number("format_id").map { String(Int($0)) } ?? "?", url: url,
                  ext: c.string("ext"), protocol: c.string("protocol"), vcodec: c.string("vcodec"), acodec: c.string("acodec"),
                  width: c.number("width"), height: c.number("height"), fps: c.number("fps"), tbr: c.number("tbr"),
                  vbr: c.number("vbr"), abr: c.number("abr"), asr: c.number("asr"), audioChannels: c.number("audio_channels"),
                  filesize: c.number("filesize"), filesizeApprox: c.number("filesize_approx"), language: c.string("language"),
                  container: c.string("container"), dynamicRange: c.string("dynamic_range"), formatNote: c.string("format_note"),
                  hasDRM: c.bool("has_drm"))
        httpHeaders = c.strings("http_headers")
    }

    /// It may carry pictures: its video codec is not `"none"` (unknown counts, as in yt-dlp).
    public var hasVideo: Bool { vcodec?.lowercased() != "none" }
    /// It may carry sound: its audio codec is not `"none"`.
    public var hasAudio: Bool { acodec?.lowercased() != "none" }

    /// A numeric field by yt-dlp's name (what a `[height<=720]` filter reads); nil when absent.
    public func number(_ field: FormatFilter.NumericField) -> Double? {
        switch field {
        case .width: width
        case .height: height
        case .fps: fps
        case .tbr: tbr
        case .vbr: vbr
        case .abr: abr
        case .asr: asr
        case .audioChannels: audioChannels
        case .filesize: filesize
        case .filesizeApprox: filesizeApprox
        }
    }

    /// A text field by yt-dlp's name (what an `[ext=mp4]` filter reads); nil when absent.
    public func string(_ field: FormatFilter.TextField) -> String? {
        switch field {
        case .ext: ext
        case .vcodec: vcodec
        case .acodec: acodec
        case .protocol: `protocol`
        case .formatID: formatID
        case .language: language
        case .container: container
        case .dynamicRange: dynamicRange
        case .formatNote: formatNote
        }
    }

    /// One line for people: `137 mp4 1920x1080 avc1.640028 (video only)`.
    public var summary: String {
        var parts = [formatID]
        if let ext { parts.append(ext) }
        if let width, let height { parts.append("\(Int(width))x\(Int(height))") } else if let height { parts.append("\(Int(height))p") }
        let codecs = [vcodec, acodec].compactMap { $0 }.filter { $0 != "none" }
        if !codecs.isEmpty { parts.append(codecs.joined(separator: "+")) }
        if !hasAudio { parts.append("(video only)") } else if !hasVideo { parts.append("(audio only)") }
        return parts.joined(separator: " ")
    }
}
