import CFFmpeg
import FFmpegKit

extension RGBAImage {
    /// The image as PNG file bytes, by FFmpeg's PNG encoder (alpha dropped).
    func pngData() throws(FFmpegError) -> [UInt8] {
        let frame = Frame()
        let f = frame.pointer
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_RGBA.rawValue
        let status = av_frame_get_buffer(f, 0)
        guard status >= 0 else { throw FFmpegError(code: status, operation: "av_frame_get_buffer") }
        let rowBytes = width * 4
        let stride = Int(f.pointee.linesize.0)
        pixels.withUnsafeBytes { src in
            guard let dst = f.pointee.data.0, let base = src.baseAddress else { return }
            for row in 0..<height {
                (dst + row * stride).update(from: base.advanced(by: row * rowBytes).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
        }
        return try PNGEncoder().encode(frame)
    }
}
