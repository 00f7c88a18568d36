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

    /// How a renderer brings 4:2:0 chroma to full size: SDL's OpenGL renderers sample the chroma
    /// planes bilinearly at pixel centres; its software renderer repeats each sample over 2x2 pixels.
    enum ChromaUpsampling { case bilinear, nearest }

    static func chromaUpsampling(renderer: String) -> ChromaUpsampling {
        renderer == "software" ? .nearest : .bilinear
    }

    /// An 8-bit 4:2:0 `frame` as RGBA, all by libswscale: each chroma sample covering its 2x2 luma
    /// pixels (an odd picture's last chroma column and row cover one), brought to full size as the
    /// renderer does it, then the 4:4:4 picture converted with SDL's matrix for `mode`.
    static func referenceRGBA(_ frame: Frame, mode: YUVColorMode, chroma: ChromaUpsampling) throws -> RGBAImage {
        let f = frame.pointer
        guard f.pointee.format == AV_PIX_FMT_YUV420P.rawValue || f.pointee.format == AV_PIX_FMT_YUVJ420P.rawValue else {
            throw Failure(description: "reference needs yuv420p, got \(frame.pixelFormatName)")
        }
        let w = f.pointee.width, h = f.pointee.height
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        // 4:4:4 at even size (2·cw x 2·ch): chroma scaled exactly 2x, luma in the top-left corner.
        let full = Frame()
        full.pointer.pointee.width = 2 * cw
        full.pointer.pointee.height = 2 * ch
        full.pointer.pointee.format = AV_PIX_FMT_YUV444P.rawValue
        guard av_frame_get_buffer(full.pointer, 0) >= 0 else { throw Failure(description: "av_frame_get_buffer") }
        let g = full.pointer
        for row in 0..<Int(h) {
            (g.pointee.data.0! + row * Int(g.pointee.linesize.0)).update(from: f.pointee.data.0! + row * Int(f.pointee.linesize.0), count: Int(w))
        }
        let filter = chroma == .bilinear ? SWS_BILINEAR : SWS_POINT
        for (src, srcStride, dst, dstStride) in [(f.pointee.data.1, f.pointee.linesize.1, g.pointee.data.1, g.pointee.linesize.1),
                                                 (f.pointee.data.2, f.pointee.linesize.2, g.pointee.data.2, g.pointee.linesize.2)] {
            try scale(src, srcStride, cw, ch, AV_PIX_FMT_GRAY8, to: dst, dstStride, 2 * cw, 2 * ch, AV_PIX_FMT_GRAY8,
                      flags: filter | SWS_ACCURATE_RND)
        }
        var pixels = [UInt8](repeating: 0, count: Int(w * h * 4))
        try pixels.withUnsafeMutableBufferPointer { out in
            let planes: [UnsafePointer<UInt8>?] = [UnsafePointer(g.pointee.data.0), UnsafePointer(g.pointee.data.1), UnsafePointer(g.pointee.data.2)]
            let strides = [g.pointee.linesize.0, g.pointee.linesize.1, g.pointee.linesize.2]
            // Converting only the top-left w x h: the source planes are read with their own strides.
            guard let ctx = sws_getContext(w, h, AV_PIX_FMT_YUV444P, w, h, AV_PIX_FMT_RGBA, SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT,
                                           nil, nil, nil) else { throw Failure(description: "sws_getContext") }
            defer { sws_freeContext(ctx) }
            let matrix = sws_getCoefficients(mode == .bt709 ? SWS_CS_ITU709 : SWS_CS_ITU601)
            sws_setColorspaceDetails(ctx, matrix, mode == .jpeg ? 1 : 0, matrix, 1, 0, 1 << 16, 1 << 16)
            var dst: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var dstStride: [Int32] = [w * 4, 0, 0, 0]
            guard sws_scale(ctx, planes, strides, 0, h, &dst, &dstStride) == h else { throw Failure(description: "sws_scale") }
        }
        return RGBAImage(width: Int(w), height: Int(h), pixels: pixels)
    }

    /// One plane (or packed picture) scaled by libswscale.
    private static func scale(_ src: UnsafeMutablePointer<UInt8>?, _ srcStride: Int32, _ sw: Int32, _ sh: Int32, _ sf: AVPixelFormat,
                              to dst: UnsafeMutablePointer<UInt8>?, _ dstStride: Int32, _ dw: Int32, _ dh: Int32, _ df: AVPixelFormat,
                              flags: Int32) throws {
        guard let ctx = sws_getContext(sw, sh, sf, dw, dh, df, flags, nil, nil, nil) else { throw Failure(description: "sws_getContext") }
        defer { sws_freeContext(ctx) }
        var srcPlanes: [UnsafePointer<UInt8>?] = [UnsafePointer(src), nil, nil, nil]
        var srcStrides: [Int32] = [srcStride, 0, 0, 0]
        var dstPlanes: [UnsafeMutablePointer<UInt8>?] = [dst, nil, nil, nil]
        var dstStrides: [Int32] = [dstStride, 0, 0, 0]
        guard sws_scale(ctx, &srcPlanes, &srcStrides, 0, sh, &dstPlanes, &dstStrides) == dh else { throw Failure(description: "sws_scale") }
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

    /// A yuv420p picture of one colour.
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

extension TestMedia {
    /// The first picture of an image or video file at `path`, as RGBA.
    static func rgbaImage(atPath path: String) throws -> RGBAImage {
        let input = try InputFile(url: path)
        guard let stream = input.bestStream(.video) else { throw Failure(description: "\(path): no picture") }
        let decoder = try Decoder(input: input, streamIndex: stream, threads: 1)
        let packet = Packet(), frame = Frame()
        while try input.read(into: packet) == .ok {
            guard packet.streamIndex == stream else { continue }
            _ = try decoder.send(packet)
            if try decoder.receive(into: frame) == .ok { break }
        }
        if frame.width == 0 {
            _ = try decoder.send(nil)
            guard try decoder.receive(into: frame) == .ok else { throw Failure(description: "\(path): nothing decoded") }
        }
        let rgba = try ImageScaler(pixelFormat: AV_PIX_FMT_RGBA).convert(frame)
        var bytes: [UInt8] = []
        let n = try rgba.copyPackedImage(into: &bytes)
        return RGBAImage(width: rgba.width, height: rgba.height, pixels: Array(bytes[0..<n]))
    }

    /// Limited-range BT.601 YUV of a few colours, for solid test pictures.
    static let red = (y: UInt8(81), u: UInt8(90), v: UInt8(240))
    static let blue = (y: UInt8(41), u: UInt8(240), v: UInt8(110))

    static func solidFrame(width: Int, height: Int, _ c: (y: UInt8, u: UInt8, v: UInt8)) -> Frame {
        solidFrame(width: width, height: height, y: c.y, u: c.u, v: c.v)
    }
}
