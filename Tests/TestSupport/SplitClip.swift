import Foundation

/// A clip's picture and sound as two files, copied apart by the ffmpeg CLI (`-c copy`, nothing
/// re-encoded; the index first, as a site serves them): what a video site serves as separate
/// formats, and what `--audio-file` plays.
/// Played together on one clock they must give what the clip itself gives.
public struct SplitClip: Sendable {
    /// The clip split (a bundled asset's path).
    public let original: String
    /// Its video stream alone, and its sound alone.
    public let video: String
    public let sound: String

    /// Splits `original` (default: the bundled h264-aac.mp4) into `video` and `sound`, files named so
    /// in `folder`.
    public static func make(in folder: TemporaryFolder, from original: String = Repository.asset("h264-aac.mp4"),
                            video: String = "split-video.mp4", sound: String = "split-sound.m4a") async throws -> SplitClip {
        let clip = SplitClip(original: original, video: folder.path(video), sound: folder.path(sound))
        for (map, output) in [("0:v", clip.video), ("0:a", clip.sound)] {
            let ffmpeg = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-y", "-i", original, "-map", map, "-c", "copy",
                                                                "-movflags", "+faststart", output])
            guard ffmpeg.status == 0 else { throw Failure(description: "ffmpeg could not copy \(map) of \(original): \(ffmpeg.standardError)") }
        }
        return clip
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }
}
