import CFFmpeg
import CSDL2
import FFmpegKit

/// Owns one SDL streaming texture holding the newest picture of one video sink. Only this object
/// destroys it: in ``destroy()`` (the window calls it before destroying its renderer) or in deinit.
///
/// 8-bit 4:2:0 pictures (`yuv420p`, `yuvj420p`) go to an IYUV texture as they are, plane by plane
/// (`SDL_UpdateYUVTexture`); every other format (4:4:4, 10-bit, NV12, RGB…) is converted to
/// `yuv420p` by libswscale first. The texture is re-created when the size or colour mode changes.
///
/// Textures have even sides: SDL 2.26's software renderer mis-sizes the chroma rows of an odd-width
/// IYUV texture (its chroma pitch is `w / 2`). An odd picture goes in the top-left corner with its
/// last luma column and row repeated (its chroma planes already cover the even size) and is drawn
/// from ``sourceRect``.
@WindowActor
final class VideoTexture {
    private let renderer: OpaquePointer
    private(set) var texture: OpaquePointer?
    /// The picture's size (the texture's, rounded up to even sides).
    private(set) var size = DisplayGeometry.Size(width: 0, height: 0)
    /// Luma padded to even sides, for odd-sized pictures only.
    private var paddedLuma: [UInt8] = []
    private(set) var sampleAspect = Rational(1, 1)
    /// Generation of the picture in the texture, nil before the first upload.
    private(set) var generation: UInt64?
    private var mode: YUVColorMode?
    private var scaler: ImageScaler?

    init(renderer: OpaquePointer) {
        self.renderer = renderer
    }

    isolated deinit { destroy() }

    /// Uploads `picture` unless it is the one already in the texture.
    func upload(_ picture: WindowVideoSink.Picture) throws(WindowError) {
        guard picture.generation != generation else { return }
        let source = picture.frame.pointer
        let direct = Self.isDirect(source)
        let frame: Frame
        if direct {
            frame = picture.frame
        } else {
            let scaler = self.scaler ?? ImageScaler(pixelFormat: AV_PIX_FMT_YUV420P)
            self.scaler = scaler
            do { frame = try scaler.convert(picture.frame) } catch {
                throw WindowError.sdl("converting a \(picture.frame.pixelFormatName) picture: \(error)")
            }
        }
        let mode = direct ? YUVColorMode(frame: source) : YUVColorMode(convertedFrom: source)
        let newSize = DisplayGeometry.Size(width: frame.width, height: frame.height)
        SDL_SetYUVConversionMode(mode.sdl)
        if texture == nil || newSize != size || mode != self.mode {
            destroy()
            guard let t = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_IYUV.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                            Int32(Self.even(newSize.width)), Int32(Self.even(newSize.height))) else {
                throw WindowError.sdl("SDL_CreateTexture \(newSize): \(sdlError())")
            }
            texture = t
            size = newSize
            self.mode = mode
        }
        let f = frame.pointer
        let evenWidth = Self.even(newSize.width), evenHeight = Self.even(newSize.height)
        let padded = evenWidth != newSize.width || evenHeight != newSize.height
        if padded { padLuma(f, width: evenWidth, height: evenHeight) }
        let status = paddedLuma.withUnsafeBufferPointer { luma in
            withUnsafeBytes(of: f.pointee.data) { data in
                withUnsafeBytes(of: f.pointee.linesize) { linesize in
                    let planes = data.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                    let pitches = linesize.bindMemory(to: Int32.self)
                    return padded
                        ? SDL_UpdateYUVTexture(texture, nil, luma.baseAddress, Int32(evenWidth), planes[1], pitches[1], planes[2], pitches[2])
                        : SDL_UpdateYUVTexture(texture, nil, planes[0], pitches[0], planes[1], pitches[1], planes[2], pitches[2])
                }
            }
        }
        guard status == 0 else { throw WindowError.sdl("SDL_UpdateYUVTexture: \(sdlError())") }
        let sar = source.pointee.sample_aspect_ratio
        sampleAspect = Rational(sar.num, sar.den)
        generation = picture.generation
    }

    /// The part of the texture the picture covers.
    var sourceRect: SDL_Rect { SDL_Rect(x: 0, y: 0, w: Int32(size.width), h: Int32(size.height)) }

    /// How the picture in the texture is displayed for a stream with this rotation.
    func geometry(rotation: Double) -> DisplayGeometry {
        DisplayGeometry(frameSize: size, sampleAspect: sampleAspect, rotation: rotation)
    }

    func destroy() {
        if let texture { SDL_DestroyTexture(texture) }
        texture = nil
        generation = nil
    }

    private static func even(_ n: Int) -> Int { (n + 1) & ~1 }

    /// Copies the luma plane into `paddedLuma` (`width` x `height`, both even), repeating the
    /// picture's last column and row into the extra ones.
    private func padLuma(_ f: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) {
        let w = Int(f.pointee.width), h = Int(f.pointee.height), stride = Int(f.pointee.linesize.0)
        guard let src = f.pointee.data.0, w > 0, h > 0 else { return }
        if paddedLuma.count != width * height { paddedLuma = [UInt8](repeating: 0, count: width * height) }
        paddedLuma.withUnsafeMutableBufferPointer { dst in
            guard let base = dst.baseAddress else { return }
            for y in 0..<height {
                let row = base + y * width
                row.update(from: src + min(y, h - 1) * stride, count: w)
                if width > w { row[w] = row[w - 1] }
            }
        }
    }

    /// Pictures SDL can take without conversion: 8-bit 4:2:0 with positive strides.
    private static func isDirect(_ f: UnsafeMutablePointer<AVFrame>) -> Bool {
        let format = f.pointee.format
        guard format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue else { return false }
        return f.pointee.linesize.0 > 0 && f.pointee.linesize.1 > 0 && f.pointee.linesize.2 > 0
    }
}
