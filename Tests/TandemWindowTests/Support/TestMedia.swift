import CFFmpeg
import FFmpegKit
import Foundation
@testable import TandemWindow

/// The bundled clips (assets/), decoded directly with FFmpegKit, and reference conversions.
enum TestMedia {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String { root.appendingPathComponent("assets").appendingPathComponent(name).path }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// The `index`-th decoded picture of the best video stream.
    static func videoFrame(_ name: String, index: Int = 0) throws -> Frame {
        let input = try InputFile(url: path(name))
        guard let stream = input.bestStream(.video) else { throw Failure(description: "\(name): no video") }
        let decoder = try Decoder(input: input, streamIndex: stream, threads: 1)
        let packet = Packet(), frame = Frame()
        var seen = 0, draining = false
        while true {
            if !draining {
                if try input.read(into: packet) == .endOfStream {
                    _ = try decoder.send(nil)
                    draining = true
                } else if packet.streamIndex == stream {
                    _ = try decoder.send(packet)
                }
            }
            while try decoder.receive(into: frame) == .ok {
                if seen == index { return frame.moveOut() }
                seen += 1
                frame.unref()
            }
            if draining { throw Failure(description: "\(name): fewer than \(index + 1) pictures") }
        }
    }

    /// `frame` as RGBA by libswscale with SDL's matrix for `mode` (accurate rounding, full chroma
    /// interpolation): the picture the window should show at 1:1.
    static func referenceRGBA(_ frame: Frame, mode: YUVColorMode) throws -> RGBAImage {
        let w = Int32(frame.width), h = Int32(frame.height)
        let flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        guard let ctx = sws_getContext(w, h, AVPixelFormat(rawValue: frame.format), w, h, AV_PIX_FMT_RGBA, flags, nil, nil, nil) else {
            throw Failure(description: "sws_getContext")
        }
        defer { sws_freeContext(ctx) }
        let matrix = sws_getCoefficients(mode == .bt709 ? SWS_CS_ITU709 : SWS_CS_ITU601)
        sws_setColorspaceDetails(ctx, matrix, mode == .jpeg ? 1 : 0, matrix, 1, 0, 1 << 16, 1 << 16)
        var pixels = [UInt8](repeating: 0, count: Int(w * h * 4))
        let f = frame.pointer
        let rows = pixels.withUnsafeMutableBufferPointer { out -> Int32 in
            var dst: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var dstStride: [Int32] = [w * 4, 0, 0, 0]
            return withUnsafeBytes(of: f.pointee.data) { data in
                withUnsafeBytes(of: f.pointee.linesize) { linesize in
                    let src = data.bindMemory(to: UnsafePointer<UInt8>?.self)
                    return sws_scale(ctx, src.baseAddress, linesize.bindMemory(to: Int32.self).baseAddress, 0, h, &dst, &dstStride)
                }
            }
        }
        guard rows == h else { throw Failure(description: "sws_scale: \(rows)") }
        return RGBAImage(width: Int(w), height: Int(h), pixels: pixels)
    }

    /// Peak signal-to-noise ratio of the RGB channels, in dB (infinity when equal).
    static func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        precondition(a.width == b.width && a.height == b.height, "\(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        var sum = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
                sum += d * d
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// A yuv420p picture of one colour (limited-range BT.601 values).
    static func solidFrame(width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8) -> Frame {
        let frame = Frame()
        let f = frame.pointer
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        precondition(av_frame_get_buffer(f, 0) >= 0)
        let planes = [(f.pointee.data.0, Int(f.pointee.linesize.0) * height, y),
                      (f.pointee.data.1, Int(f.pointee.linesize.1) * ((height + 1) / 2), u),
                      (f.pointee.data.2, Int(f.pointee.linesize.2) * ((height + 1) / 2), v)]
        for (data, count, value) in planes { data?.initialize(repeating: value, count: count) }
        return frame
    }
}

extension RGBAImage {
    /// (r, g, b) at a pixel.
    func rgb(x: Int, y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 4
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }
}
