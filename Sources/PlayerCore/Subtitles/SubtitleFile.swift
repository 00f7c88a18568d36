import FFmpegKit
import Foundation

/// A subtitle file (.srt, .ass/.ssa, .vtt, .sub…) read whole with libavformat and decoded with
/// libavcodec when the player opens: its cues and the ASS header libass needs.
struct SubtitleFile {
    /// Extensions looked for next to a video, in mpv's order of preference.
    static let autoloadExtensions = ["ass", "ssa", "srt", "vtt"]

    let codec: String
    let header: String?
    let timeline: SubtitleTimeline
    let language: String?
    let title: String?

    /// Reads and decodes the first subtitle stream of `path`. Throws ``OpenError`` naming the file.
    init(path: String) throws(OpenError) {
        let input = try InputFile(url: path)
        let info = input.info()
        guard let stream = info.streams.first(where: { $0.type == .subtitle }) else {
            throw OpenError(url: path, reason: "no subtitles in this file (streams: \(info.streams.map(\.type.rawValue).joined(separator: ", ")))")
        }
        let decoder = try SubtitleDecoder(input: input, streamIndex: stream.index)
        var timeline = SubtitleTimeline()
        let packet = Packet()
        do throws(FFmpegError) {
            while try input.read(into: packet) == .ok {
                guard packet.streamIndex == stream.index, let event = try decoder.decode(packet) else { continue }
                timeline.add(event)
            }
        } catch {
            throw OpenError(url: path, reason: error.reason)
        }
        codec = stream.codec
        header = decoder.header
        self.timeline = timeline
        language = stream.language
        title = stream.title
    }

    /// Subtitle files named after `video` in its folder (`film.srt`, `film.en.srt` for `film.mkv`),
    /// as mpv's `--sub-auto=exact` plus language suffixes finds them; sorted by name. None for a URL.
    static func discover(nextTo video: String) -> [String] {
        guard !video.contains("://") else { return [] }
        let url = URL(fileURLWithPath: video)
        let folder = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { name in
            let candidate = URL(fileURLWithPath: name)
            guard autoloadExtensions.contains(candidate.pathExtension.lowercased()) else { return false }
            let base = candidate.deletingPathExtension().lastPathComponent
            return base == stem || base.hasPrefix(stem + ".")
        }
        .sorted()
        .map { folder.appendingPathComponent($0).path }
    }
}
