import Foundation
import Testing
import TestSupport

/// Clips made in the tests with the ffmpeg CLI, once per process, in a temporary folder.
enum Clips {
    static let folder: TemporaryFolder = { try! TemporaryFolder("webmedia") }()

    /// Runs `ffmpeg` with `arguments` (after the common quiet flags); throws its error output.
    static func ffmpeg(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-nostdin"] + arguments)
        try #require(result.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(result.standardError)")
    }

    /// Runs `ffprobe` with `arguments` and returns what it printed.
    static func ffprobe(_ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run("/usr/bin/ffprobe", ["-hide_banner", "-loglevel", "error"] + arguments)
        try #require(result.status == 0, "ffprobe \(arguments.joined(separator: " ")): \(result.standardError)")
        return result.standardOutput
    }

    /// Matroska: 10 s of H.264 (a keyframe every second, B-frames) and AC-3 5.1, with an English SRT
    /// subtitle track — what a browser cannot open, with codecs it decodes but one.
    static func matroska(seconds: Int = 10, name: String = "film.mkv") async throws -> String {
        let path = folder.path(name)
        if FileManager.default.fileExists(atPath: path) { return path }
        let subtitles = folder.path("film.srt")
        try """
        1
        00:00:01,000 --> 00:00:02,500
        Hello <i>there</i> & welcome

        2
        00:00:04,000 --> 00:00:05,000
        Two lines
        of text

        """.write(toFile: subtitles, atomically: true, encoding: .utf8)
        try await ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=\(seconds)",
                          "-f", "lavfi", "-i", "sine=f=440:r=48000:d=\(seconds)", "-i", subtitles,
                          "-map", "0:v", "-map", "1:a", "-map", "2:s",
                          "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-preset", "veryfast",
                          "-c:a", "ac3", "-ac", "6", "-c:s", "srt", "-metadata:s:s:0", "language=eng", path + ".tmp.mkv"])
        try FileManager.default.moveItem(atPath: path + ".tmp.mkv", toPath: path)
        return path
    }
}
