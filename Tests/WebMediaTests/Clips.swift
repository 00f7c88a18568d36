import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// Clips made in the tests with the ffmpeg CLI, kept between runs in one folder of the system's
/// temporary directory (each made once: to a temporary name, then renamed, so tests running at the
/// same time never read half a file), and what the tests write from them.
enum Clips {
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-webmedia-clips")

    /// The path of `name` in the folder (created if missing).
    static func path(_ name: String) -> String {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    /// `name`, made by `ffmpeg` with `arguments` (then the output path) unless it is there already.
    static func made(_ name: String, _ arguments: [String]) async throws -> String {
        let target = path(name)
        if FileManager.default.fileExists(atPath: target) { return target }
        let temporary = path(".\(UUID().uuidString)-\(name)")
        try await ffmpeg(arguments + [temporary])
        try #require(rename(temporary, target) == 0, "renaming \(temporary): errno \(errno)")
        return target
    }

    /// Runs `ffmpeg` with `arguments` (after the common quiet flags) and returns what it printed.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-nostdin"] + arguments)
        try #require(result.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(result.standardError)")
        return result.standardOutput
    }

    /// Runs `ffprobe` with `arguments` and returns what it printed.
    static func ffprobe(_ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run("/usr/bin/ffprobe", ["-hide_banner", "-loglevel", "error"] + arguments)
        try #require(result.status == 0, "ffprobe \(arguments.joined(separator: " ")): \(result.standardError)")
        return result.standardOutput
    }

    /// ffmpeg's framemd5 hashes of the decoded pictures of `path`'s first video stream.
    static func pictures(_ path: String) async throws -> [String] {
        try await ffmpeg(["-i", path, "-map", "0:v:0", "-f", "framemd5", "-"]).split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
    }

    /// Matroska: 10 s of H.264 (a keyframe every second, B-frames) and AC-3 5.1, with an English SRT
    /// subtitle track — what a browser cannot open, with codecs it decodes but one.
    static func matroska() async throws -> String {
        let subtitles = path("film.srt")
        try """
        1
        00:00:01,000 --> 00:00:02,500
        Hello <i>there</i> & welcome

        2
        00:00:04,000 --> 00:00:05,000
        Two lines
        of text

        """.write(toFile: subtitles, atomically: true, encoding: .utf8)
        return try await made("film-1.mkv", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=10",
                                             "-f", "lavfi", "-i", "sine=f=440:r=48000:d=10", "-i", subtitles,
                                             "-map", "0:v", "-map", "1:a", "-map", "2:s",
                                             "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-preset", "veryfast",
                                             "-c:a", "ac3", "-ac", "6", "-c:s", "srt", "-metadata:s:s:0", "language=eng", "-f", "matroska"])
    }
}
