import Foundation

/// A live HLS stream made by the `ffmpeg` CLI while a test runs: `testsrc2` at 25 frames a second,
/// paced in real time (`-re`), cut into 1 s segments in a temporary folder, the playlist a sliding
/// window without `EXT-X-ENDLIST`, with `EXT-X-PROGRAM-DATE-TIME` — what issue 27 was tried on.
/// Serve ``folder`` over HTTP (StaticFileServer) or open ``playlistPath`` directly.
public final class LiveHLS: Sendable {
    public static let playlist = "live.m3u8"
    /// Segments the playlist keeps (`-hls_list_size`), the 10.
    public static let window = 10
    public let folder: TemporaryFolder
    public let process: ChildProcess

    private init(folder: TemporaryFolder, process: ChildProcess) {
        self.folder = folder
        self.process = process
    }

    /// Starts ffmpeg making the stream; returns once the playlist lists `segments` segments.
    public static func start(segments: Int = 3) async throws -> LiveHLS {
        let folder = try TemporaryFolder("live-hls")
        let process = try ChildProcess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-re",
                                                  "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25",
                                                  // A keyframe every second, so every segment is 1 s and starts with one.
                                                  "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                                                  "-f", "hls", "-hls_time", "1", "-hls_list_size", "\(window)",
                                                  "-hls_flags", "delete_segments+program_date_time",
                                                  folder.path(playlist)], standardOutput: .discard)
        let live = LiveHLS(folder: folder, process: process)
        do {
            try await live.waitForSegments(segments)
        } catch {
            await live.stop()
            throw error
        }
        return live
    }

    public var playlistPath: String { folder.path(Self.playlist) }

    /// The playlist's text now ("" before ffmpeg wrote it).
    public var playlistText: String { (try? String(contentsOfFile: playlistPath, encoding: .utf8)) ?? "" }

    /// Segments the playlist lists now.
    public var segmentsListed: Int { playlistText.split(separator: "\n").count { $0.hasPrefix("#EXTINF") } }

    /// The sequence number of the first segment the playlist lists now (`EXT-X-MEDIA-SEQUENCE`;
    /// ffmpeg numbers segments from 0, so segment N holds the stream's second N).
    public var mediaSequence: Int {
        let tag = "#EXT-X-MEDIA-SEQUENCE:"
        return playlistText.split(separator: "\n").first { $0.hasPrefix(tag) }.flatMap { Int($0.dropFirst(tag.count)) } ?? 0
    }

    /// Waits until the playlist lists at least `count` segments (ffmpeg adds one a second).
    public func waitForSegments(_ count: Int, within seconds: Double = defaultBound) async throws {
        try await waitUntil("\(count) segments in the live playlist (ffmpeg: \(process.standardError))", within: seconds,
                            every: .milliseconds(100)) {
            guard process.isRunning else { throw ChildProcess.StreamEnded(what: "the live stream", output: process.standardError) }
            return segmentsListed >= count
        }
    }

    public func stop() async {
        await process.stop()
        folder.remove()
    }

    /// Ends the stream as a broadcaster does: ffmpeg stops on SIGTERM as on `q`, writing the
    /// playlist's last segment and `EXT-X-ENDLIST`. The folder stays, served as it is.
    public func end() async throws {
        process.terminate()
        _ = try await process.exit(within: defaultBound)
        guard playlistText.contains("#EXT-X-ENDLIST") else {
            throw ChildProcess.SpawnFailure(description: "ffmpeg ended the live stream without EXT-X-ENDLIST: \(process.standardError)")
        }
    }

    /// Kills ffmpeg and removes the folder at once, for a `defer`.
    public func stopNow() {
        process.kill()
        folder.remove()
    }

    /// A finished (VOD) HLS of `seconds` of the same picture in `folder`, made as fast as ffmpeg
    /// can: its playlist ends with `EXT-X-ENDLIST`. Returns the playlist's path.
    public static func makeVOD(in folder: TemporaryFolder, seconds: Int = 3) async throws -> String {
        let path = folder.path("vod.m3u8")
        let result = try await ChildProcess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi",
                                                           "-i", "testsrc2=size=160x120:rate=25:duration=\(seconds)",
                                                           "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
                                                           "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", path])
        guard result.termination == .exited(0) else { throw ChildProcess.SpawnFailure(description: "ffmpeg: \(result.standardError)") }
        return path
    }
}
