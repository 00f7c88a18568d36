/// Which of a page's formats Tandem's player can open and decode, and in words why not the others.
///
/// The player opens one URL with libavformat: a media file over http(s), an HLS media playlist, an
/// RTMP or RTSP stream. Formats yt-dlp delivers in its own way (DASH fragments it fetches one by
/// one, Adobe HDS, Smooth Streaming, storyboard pictures) have no URL the player could open as is;
/// encrypted ones need keys nobody gives it; and a codec FFmpeg has no decoder for cannot play.
public struct Playability: Sendable {
    /// yt-dlp's delivery protocols whose `url` libavformat opens as it is.
    public static let protocols: Set<String> = ["http", "https", "m3u8", "m3u8_native", "rtmp", "rtmps", "rtmpe", "rtsp", "rtsps"]

    /// Whether FFmpeg decodes a codec, by FFmpeg's codec name (`h264`, `av1`, `opus`).
    public var decodes: @Sendable (String) -> Bool

    /// `decodes`: nil takes every codec as decodable (for tests of the selection alone).
    public init(decodes: (@Sendable (String) -> Bool)? = nil) {
        self.decodes = decodes ?? { _ in true }
    }

    /// Why the player cannot play `format`, or nil when it can (as far as the page says).
    public func problem(with format: YtdlFormat) -> String? {
        let delivery = format.protocol?.lowercased() ?? Self.scheme(of: format.url)
        guard Self.protocols.contains(delivery) else {
            switch delivery {
            case "http_dash_segments": return "DASH fragments (fetched by yt-dlp itself)"
            case "f4m": return "Adobe HDS"
            case "ism": return "Smooth Streaming"
            case "mhtml": return "storyboard pictures"
            default: return "delivered by \(delivery)"
            }
        }
        if format.hasDRM == true { return "encrypted (DRM)" }
        if !format.hasVideo && !format.hasAudio { return "neither video nor sound" }
        for codec in [format.vcodec, format.acodec].compactMap({ $0 }) {
            if let name = Self.ffmpegCodec(codec), !decodes(name) { return "\(codec) (no decoder in this FFmpeg)" }
        }
        return nil
    }

    /// FFmpeg's codec name for a codec as yt-dlp writes it (an RFC 6381 string such as `avc1.64001F`,
    /// `mp4a.40.2`, `vp09.00.40.08`, or a plain name such as `vp9`, `opus`); nil for `none` and for
    /// what this table does not know (then the player finds out when it opens the format).
    public static func ffmpegCodec(_ codec: String) -> String? {
        let lower = codec.lowercased()
        if lower == "mp4a.69" || lower == "mp4a.6b" { return "mp3" }
        let family = String(lower.prefix { $0 != "." })
        return codecFamilies[family]
    }

    private static let codecFamilies: [String: String] = [
        "avc1": "h264", "avc3": "h264", "h264": "h264",
        "hev1": "hevc", "hvc1": "hevc", "h265": "hevc", "hevc": "hevc", "dvh1": "hevc", "dvhe": "hevc",
        "vp9": "vp9", "vp09": "vp9", "vp8": "vp8", "vp08": "vp8",
        "av01": "av1", "av1": "av1",
        "theora": "theora", "mp4v": "mpeg4", "h263": "h263",
        "mp4a": "aac", "aac": "aac", "opus": "opus", "vorbis": "vorbis", "mp3": "mp3",
        "ac-3": "ac3", "ac3": "ac3", "ec-3": "eac3", "eac3": "eac3", "flac": "flac", "alac": "alac",
    ]

    private static func scheme(of url: String) -> String {
        url.prefix { $0 != ":" }.lowercased()
    }
}
