import Foundation

/// Writes a Blu-ray PGS subtitle stream (`.sup`, which ffmpeg demuxes): display sets of segments
/// (PCS presentation, WDS window, PDS palette, ODS run-length object, END), since ffmpeg cannot
/// make a bitmap subtitle from text and none is bundled. One opaque rectangle of one colour per
/// shown subtitle, so the pixels a player draws can be checked exactly.
struct PGSWriter {
    /// A solid rectangle on the canvas, shown from `start` until `end` (a display set with no object clears it).
    struct Rectangle {
        var x: Int, y: Int, width: Int, height: Int
        /// BT.601 limited-range luma and chroma (235, 128, 128 is white) and opacity.
        var y8: UInt8 = 235, cr: UInt8 = 128, cb: UInt8 = 128, alpha: UInt8 = 255
        var start: Double, end: Double
    }

    /// PGS timestamps tick at 90 kHz.
    static let clockRate = 90_000.0
    /// Segment types (the Blu-ray specification's numbers).
    enum Segment: UInt8 { case palette = 0x14, object = 0x15, presentation = 0x16, window = 0x17, end = 0x80 }

    var canvasWidth: Int
    var canvasHeight: Int

    /// The stream: an empty display set at 0 (so the stream starts where the video does when muxed),
    /// then each rectangle's display set and its clearing set, in time order.
    func stream(_ rectangles: [Rectangle]) -> Data {
        var out = Data()
        var composition: UInt16 = 0
        out += clear(at: 0, composition: &composition, window: rectangles.first)
        for r in rectangles.sorted(by: { $0.start < $1.start }) {
            out += display(r, composition: &composition)
            out += clear(at: r.end, composition: &composition, window: r)
        }
        return out
    }

    private func display(_ r: Rectangle, composition: inout UInt16) -> Data {
        var pcs = presentationHeader(composition: &composition, state: 0x80, objects: 1)  // epoch start
        pcs += be16(0) + [0, 0] + be16(r.x) + be16(r.y)  // object 0 in window 0, not cropped, at x, y
        let wds = [UInt8(1), 0] + be16(r.x) + be16(r.y) + be16(r.width) + be16(r.height)
        let pds: [UInt8] = [0, 0, 1, r.y8, r.cr, r.cb, r.alpha]  // palette 0 version 0: entry 1
        let rle = Self.runLength(width: r.width, height: r.height, color: 1)
        let length = rle.count + 4
        var ods = be16(0) + [0, 0xC0]  // object 0, version 0, first and last fragment
        ods += [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + be16(r.width) + be16(r.height) + rle
        return segment(.presentation, at: r.start, pcs) + segment(.window, at: r.start, wds) + segment(.palette, at: r.start, pds)
            + segment(.object, at: r.start, ods) + segment(.end, at: r.start, [])
    }

    private func clear(at time: Double, composition: inout UInt16, window r: Rectangle?) -> Data {
        let pcs = presentationHeader(composition: &composition, state: 0, objects: 0)
        let wds = [UInt8(1), 0] + be16(r?.x ?? 0) + be16(r?.y ?? 0) + be16(r?.width ?? 1) + be16(r?.height ?? 1)
        return segment(.presentation, at: time, pcs) + segment(.window, at: time, wds) + segment(.end, at: time, [])
    }

    private func presentationHeader(composition: inout UInt16, state: UInt8, objects: UInt8) -> [UInt8] {
        defer { composition &+= 1 }
        // Size, frame rate code, composition number and state, no palette update, palette 0.
        return be16(canvasWidth) + be16(canvasHeight) + [0x10] + be16(Int(composition)) + [state, 0, 0, objects]
    }

    private func segment(_ type: Segment, at time: Double, _ payload: [UInt8]) -> Data {
        let pts = UInt32((time * Self.clockRate).rounded())
        var bytes: [UInt8] = Array("PG".utf8)
        bytes += [UInt8(pts >> 24), UInt8(pts >> 16 & 0xff), UInt8(pts >> 8 & 0xff), UInt8(pts & 0xff), 0, 0, 0, 0, type.rawValue]
        return Data(bytes + be16(payload.count) + payload)
    }

    /// Every row one run of `color` (`00 11LLLLLL LLLLLLLL CC`), then the end of line (`00 00`).
    static func runLength(width: Int, height: Int, color: UInt8) -> [UInt8] {
        precondition(width > 0 && width < 1 << 14)
        let row: [UInt8] = [0, 0xC0 | UInt8(width >> 8), UInt8(width & 0xff), color, 0, 0]
        return Array(Array(repeating: row, count: height).joined())
    }

    private func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
}
