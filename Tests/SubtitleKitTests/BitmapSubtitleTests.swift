import FFmpegKit
import Foundation
import PlayerCore
import SubtitleKit
import Testing

/// Bitmap subtitles (PGS, DVD) through libavcodec's decoders and the compositor, checked in the
/// pixels: the picture where and when the stream places it, gone after its end. The streams are
/// written by the test (``PGSWriter``); the DVD one is ffmpeg's `dvdsub` encoder re-encoding the PGS.
@Suite struct BitmapSubtitleTests {
    /// The rectangle on the 320x240 picture: 80x20 at (40, 200), shown from 1 s to 2 s.
    static let box = (x: 40, y: 200, width: 80, height: 20)
    static let start = 1.0, end = 2.0
    /// Times checked (mid-frame at 25 fps): before, during, after and long after.
    static let shownAt = [1.48, 1.96], hiddenAt = [0.52, 2.04, 2.48, 4.52]

    /// A PGS stream on a canvas `scale` times the video's, muxed with the grey clip into Matroska.
    static func pgsClip(_ media: SubtitleMedia, scale: Int = 1, name: String = "pgs.mkv") async throws -> String {
        let writer = PGSWriter(canvasWidth: 320 * scale, canvasHeight: 240 * scale)
        let rectangle = PGSWriter.Rectangle(x: box.x * scale, y: box.y * scale, width: box.width * scale,
                                            height: box.height * scale, start: start, end: end)
        let sup = media.path("\(name).sup")
        try writer.stream([rectangle]).write(to: URL(fileURLWithPath: sup))
        return try await media.mkv(name, subtitles: [(sup, "eng", true)])
    }

    /// Where the white pixels of `picture` are (bounding box) and how many.
    static func white(_ picture: RGBAImage) -> (box: [Int]?, count: Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let o = (y * picture.width + x) * 4
                guard picture.pixels[o] > 200, picture.pixels[o + 1] > 200, picture.pixels[o + 2] > 200 else { continue }
                count += 1
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
            }
        }
        return (count == 0 ? nil : [minX, minY, maxX, maxY], count)
    }

    static let expectedBox = [box.x, box.y, box.x + box.width - 1, box.y + box.height - 1]

    /// Checks the picture at each time: exactly the rectangle while shown, nothing otherwise.
    static func expectRectangleTimed(_ path: String, tolerance: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for time in shownAt + hiddenAt {
            let (picture, player) = try await pictureWithSubtitles(path, at: time, options: SubtitleOptions(renderer: SubtitleCompositor()))
            let shown = shownAt.contains(time)
            let found = white(picture)
            if shown {
                let box = try #require(found.box, "at \(time) s: no subtitle", sourceLocation: sourceLocation)
                #expect(zip(box, expectedBox).allSatisfy { abs($0 - $1) <= tolerance }, "at \(time) s: \(box), expected \(expectedBox)",
                        sourceLocation: sourceLocation)
                let area = Self.box.width * Self.box.height
                #expect(abs(found.count - area) <= tolerance * 2 * (Self.box.width + Self.box.height),
                        "at \(time) s: \(found.count) white pixels, expected \(area)", sourceLocation: sourceLocation)
            } else {
                #expect(found.count == 0, "at \(time) s: \(found.count) white pixels in \(String(describing: found.box))",
                        sourceLocation: sourceLocation)
            }
            #expect(player.subtitleTrack == 1, sourceLocation: sourceLocation)
            await player.close()
        }
    }

    @Test func aPGSTrackShowsItsPictureInPlaceDuringItsTimeOnly() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        try await Self.expectRectangleTimed(try await Self.pgsClip(media))
    }

    /// Blu-ray subtitles are authored on a 1920x1080 canvas whatever the video's size: positions
    /// and sizes scale from the stream's canvas to the picture.
    @Test func aPGSCanvasLargerThanThePictureIsScaledToIt() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        try await Self.expectRectangleTimed(try await Self.pgsClip(media, scale: 3, name: "big.mkv"))
    }

    /// DVD and DVB subtitle tracks (ffmpeg's `dvdsub` and `dvbsub` encoders on the PGS pictures):
    /// their own palettes, the same place. (ffmpeg's re-encoding gives them durations of its own, so
    /// only the start is checked.)
    @Test(arguments: ["dvdsub", "dvbsub"])
    func aDVDOrDVBSubtitleTrackShowsItsPictureInPlace(codec: String) async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        let pgs = try await Self.pgsClip(media)
        let dvd = media.path("\(codec).mkv")
        try await SubtitleMedia.ffmpeg(["-i", pgs, "-map", "0:v", "-map", "0:s", "-c:v", "copy", "-c:s", codec, dvd])
        for (time, shown) in [(0.52, false), (1.48, true)] {
            let (picture, player) = try await pictureWithSubtitles(dvd, at: time, options: SubtitleOptions(renderer: SubtitleCompositor()))
            let found = Self.white(picture)
            if shown {
                let box = try #require(found.box, "at \(time) s: no \(codec) subtitle")
                #expect(zip(box, Self.expectedBox).allSatisfy { abs($0 - $1) <= 1 }, "at \(time) s: \(box), expected \(Self.expectedBox)")
            } else {
                #expect(found.count == 0, "at \(time) s: \(found.count) white pixels")
            }
            await player.close()
        }
    }
}
