import ArgumentParser
import TandemApp
import YtdlKit

/// mpv's `--ytdl-format` and `--ytdl`/`--no-ytdl`, for the commands that take page links (`play`,
/// `host`, `stories`): which of a page's formats to play, and whether pages go through yt-dlp at all.
struct PageLinkOptions: ParsableArguments {
    @Option(name: .customLong("ytdl-format"), help: ArgumentHelp(
        "Which of a web page's formats to play, in yt-dlp's syntax as mpv's option: best, worst, bestvideo+bestaudio/best, "
            + "best[height<=720], a format ID, an extension (mp4); alternatives after / (default: \(FormatSpec.defaultText)). "
            + "A merge of separate video and sound plays both formats as one item.",
        valueName: "format"))
    var ytdlFormat: String?
    @Flag(name: .customLong("ytdl"), inversion: .prefixedNo, help: ArgumentHelp(
        "Open http(s) links to web pages through yt-dlp (on PATH); --no-ytdl opens every URL as media."))
    var ytdl = true

    func validate() throws {
        if let ytdlFormat {
            do throws(FormatSpecParser.Failure) { _ = try FormatSpecParser.parse(ytdlFormat) } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The resolver of page links, or nil with `--no-ytdl`.
    var resolver: PageLinkResolver? {
        guard ytdl else { return nil }
        let format = ytdlFormat.flatMap { try? FormatSpecParser.parse($0) } ?? .standard
        return PageLinkResolver(format: format)
    }
}
