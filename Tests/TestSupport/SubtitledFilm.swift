import Foundation

/// A film with a text subtitle beside it, made by the ffmpeg CLI: for the tests of subtitles in
/// `tandem play --snapshot` (TandemCLITests) and in a party's players (TandemAppTests).
public enum SubtitledFilm {
    /// Thrown when the ffmpeg CLI fails: its arguments and standard error.
    public struct FFmpegFailed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Bottom-centre text from 1 to 2 s.
    public static let srt = "1\n00:00:01,000 --> 00:00:02,000\nHELLO THERE\n\n"

    /// Runs `/usr/bin/ffmpeg ARGUMENTS` (quiet, overwriting); throws unless it exits 0.
    public static func ffmpeg(_ arguments: [String]) async throws {
        let ffmpeg = try await ChildProcess.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-nostdin"] + arguments)
        guard ffmpeg.status == 0 else { throw FFmpegFailed(description: "ffmpeg \(arguments): \(ffmpeg.standardError)") }
    }

    /// A folder with `film.mkv` (grey 320x240, 3 s, one keyframe) and `film.srt` beside it.
    public static func folder() async throws -> URL {
        let folder = try TemporaryFolder("subcli").url
        try await ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=320x240:r=25:d=3", "-c:v", "libx264", "-g", "1000",
                          "-pix_fmt", "yuv420p", folder.appendingPathComponent("film.mkv").path])
        try srt.write(to: folder.appendingPathComponent("film.srt"), atomically: true, encoding: .utf8)
        return folder
    }
}
