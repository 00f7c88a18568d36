import CFFmpeg
import Foundation

/// Routes FFmpeg's own log lines to stderr with a "ffmpeg:" prefix, at a chosen level.
public enum FFmpegLog {
    public enum Level: Int32, Sendable {
        case quiet = -8, error = 16, warning = 24, info = 32, debug = 48
    }

    /// Installs the callback once per process; later calls only change the level.
    public static func configure(level: Level = .error) {
        av_log_set_level(level.rawValue)
        av_log_set_callback { context, level, format, arguments in
            guard level <= av_log_get_level(), let format, let arguments else { return }
            var line = [CChar](repeating: 0, count: 1024)
            var printPrefix: Int32 = 1
            av_log_format_line2(context, level, format, arguments, &line, Int32(line.count), &printPrefix)
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
            let out = "ffmpeg: " + text + (text.hasSuffix("\n") ? "" : "\n")
            var bytes = Array(out.utf8)
            _ = write(2, &bytes, bytes.count)
        }
    }
}
