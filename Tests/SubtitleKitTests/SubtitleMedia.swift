import CFFmpeg
import FFmpegKit
import Foundation
import PlayerCore
import TestSupport

/// Clips with subtitles, made in a fresh folder by the ffmpeg CLI: 5 s of mid-grey 320x240 video
/// (one keyframe, so every seek decodes from the start and every subtitle packet is read) muxed
/// with generated subtitle files.
struct SubtitleMedia {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Bottom-centre text at 1–2 s and 3–4 s (SRT's default style).
    static let bottomSRT = """
        1
        00:00:01,000 --> 00:00:02,000
        BOTTOM LINE

        2
        00:00:03,000 --> 00:00:04,000
        AGAIN

        """
    /// Top-centre text (`{\\an8}`) for the whole clip.
    static let topSRT = """
        1
        00:00:00,000 --> 00:00:05,000
        {\\an8}TOP LINE

        """
    /// A styled ASS script: large yellow text in the middle at 1–2 s.
    static let middleASS = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 320
        PlayResY: 240

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Big,DejaVu Sans,28,&H0000FFFF,&H000000FF,&H00000000,&H00000000,1,0,0,0,100,100,0,0,1,2,0,5,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:02.00,Big,,0,0,0,,MIDDLE

        """

    let folder: URL

    init() throws {
        folder = try TemporaryFolder("subs").url
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `text` to `name` in the folder; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The grey clip alone (`name`, any container ffmpeg knows by extension).
    @discardableResult
    func video(_ name: String = "plain.mkv") async throws -> String {
        try await Self.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=320x240:r=25:d=5", "-c:v", "libx264", "-g", "1000",
                         "-pix_fmt", "yuv420p", path(name)])
        return path(name)
    }

    /// The grey clip muxed into Matroska with `subtitles` (file, language, default flag) in order.
    func mkv(_ name: String, subtitles: [(file: String, language: String, isDefault: Bool)], codec: String = "copy") async throws -> String {
        let plain = try await video("plain-\(name)")
        var arguments = ["-i", plain]
        for s in subtitles { arguments += ["-i", s.file] }
        arguments += ["-map", "0:v"]
        for i in subtitles.indices { arguments += ["-map", "\(i + 1):s"] }
        arguments += ["-c:v", "copy", "-c:s", codec]
        for (i, s) in subtitles.enumerated() {
            arguments += ["-metadata:s:s:\(i)", "language=\(s.language)", "-disposition:s:\(i)", s.isDefault ? "default" : "0"]
        }
        try await Self.ffmpeg(arguments + [path(name)])
        return path(name)
    }

    static func ffmpeg(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-nostdin"] + arguments)
        guard result.status == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): \(result.standardError)")
        }
    }
}

/// Keeps the newest presented picture, as RGBA.
final class LatestPicture: VideoSink, @unchecked Sendable {
    private let lock = NSLock()
    private var image: RGBAImage?
    private var position = -1.0

    func present(_ frame: VideoFrame, hostTime: Double) {
        let rgba = try? StillPictureRGBA.convert(frame.frame)
        lock.withLock {
            image = rgba
            position = frame.position
        }
    }

    func finish() {}

    var latest: (image: RGBAImage, position: Double)? { lock.withLock { image.map { ($0, position) } } }
}

enum StillPictureRGBA {
    /// `frame` as packed RGBA (libswscale).
    static func convert(_ frame: Frame) throws -> RGBAImage {
        let rgba = try ImageScaler(pixelFormat: AV_PIX_FMT_RGBA).convert(frame)
        let f = rgba.pointer.pointee
        let w = rgba.width, h = rgba.height, stride = Int(f.linesize.0)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<(w * 4) { pixels[y * w * 4 + x] = f.data.0![y * stride + x] }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }
}

extension RGBAImage {
    /// Pixels in rows `rows` whose red, green and blue all pass `threshold` (subtitle text on grey).
    func brightPixels(rows: Range<Int>, threshold: UInt8 = 200) -> Int {
        var n = 0
        for y in rows.clamped(to: 0..<height) {
            for x in 0..<width {
                let o = (y * width + x) * 4
                if pixels[o] > threshold && pixels[o + 1] > threshold && pixels[o + 2] > threshold { n += 1 }
            }
        }
        return n
    }

    /// Pixels in rows `rows` that are yellow (red and green high, blue low).
    func yellowPixels(rows: Range<Int>) -> Int {
        var n = 0
        for y in rows.clamped(to: 0..<height) {
            for x in 0..<width {
                let o = (y * width + x) * 4
                if pixels[o] > 180 && pixels[o + 1] > 180 && pixels[o + 2] < 90 { n += 1 }
            }
        }
        return n
    }

    /// Pixels differing from `other` by more than `tolerance` in any channel.
    func differingPixels(from other: RGBAImage, tolerance: Int = 24) -> [(x: Int, y: Int)] {
        var out: [(Int, Int)] = []
        for y in 0..<min(height, other.height) {
            for x in 0..<min(width, other.width) {
                let o = (y * width + x) * 4, p = (y * other.width + x) * 4
                if (0..<3).contains(where: { abs(Int(pixels[o + $0]) - Int(other.pixels[p + $0])) > tolerance }) { out.append((x, y)) }
            }
        }
        return out
    }
}

/// The picture a player with subtitles shows at `position` of `path`.
func pictureWithSubtitles(_ path: String, at position: Double, options subtitles: SubtitleOptions,
                          adjust: (Player) -> Void = { _ in }) async throws -> (RGBAImage, Player) {
    let sink = LatestPicture()
    var options = PlayerOptions(videoSink: sink, audioSink: nil, fast: true)
    options.subtitles = subtitles
    let player = try await Player.open(path, options: options)
    adjust(player)
    await player.seek(to: position)
    guard let latest = sink.latest, abs(latest.position - position) < 0.05 else {
        await player.close()
        throw SubtitleMedia.Failure(description: "no picture at \(position) (latest: \(String(describing: sink.latest?.position)))")
    }
    return (latest.image, player)
}
