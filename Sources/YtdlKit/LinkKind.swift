/// Whether an argument is opened by the player as it is or is a page whose video yt-dlp finds.
///
/// The rule, quick and without the network: an `http`/`https` URL whose path ends in a media
/// extension (`.mp4`, `.mkv`, `.webm`, `.mp3`…, an HLS `.m3u8` or DASH `.mpd` playlist) is direct
/// media; any other `http`/`https` URL is a page. Every other scheme (`rtmp`, `rtsp`, `srt`, `udp`,
/// `file`…) and anything that is not a URL (a file, a folder) is opened directly. A direct media
/// URL without such an extension (a stream at `/live`) is found by yt-dlp too, which answers that
/// it is direct media — only slower; without yt-dlp the application opens it as media all the same
/// (TandemApp's `DirectFallback`, mpv's rule); `--no-ytdl` skips yt-dlp altogether.
public enum LinkKind: Sendable, Equatable {
    /// A file, a folder, or a URL the player opens itself.
    case direct
    /// A web page: yt-dlp resolves it.
    case page

    /// Extensions of media the player opens directly from an http(s) URL (lower case).
    public static let mediaExtensions: Set<String> = [
        "3gp", "avi", "flv", "m2ts", "m4v", "mkv", "mov", "mp4", "mpeg", "mpg", "mts", "ogv", "ts", "webm", "wmv",
        "aac", "ac3", "flac", "m4a", "mka", "mp3", "oga", "ogg", "opus", "wav", "wma",
        "m3u8", "m3u", "mpd",
    ]

    /// The kind of `argument` (a command's file, URL or link) by the rule above.
    public init(of argument: String) {
        guard let schemeEnd = argument.range(of: "://") else { self = .direct; return }
        let scheme = argument[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { self = .direct; return }
        let afterHost = argument[schemeEnd.upperBound...].drop { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = afterHost.prefix { $0 != "?" && $0 != "#" }
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { self = .page; return }
        let ext = name[name.index(after: dot)...].lowercased()
        self = Self.mediaExtensions.contains(ext) ? .direct : .page
    }
}
