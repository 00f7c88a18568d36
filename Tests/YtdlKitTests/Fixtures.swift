import Foundation
import YtdlKit

/// The recorded and hand-written `yt-dlp -J` answers in Fixtures/: the generic extractor of yt-dlp
/// 2023.03.04 (Debian 12) on pages served on loopback — a `<video src>` page, one whose `<video>` is an
/// HLS master playlist, one with two `<video>`s (a playlist), an RSS feed with two enclosures (a flat
/// playlist of references) — and a video site's watch page written by hand with video-only,
/// sound-only and combined formats, DRM, DASH fragments and a storyboard.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    static func info(_ name: String) throws -> YtdlInfo {
        try YtdlInfo.decode(try data(name))
    }
}
