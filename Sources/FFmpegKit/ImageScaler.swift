import CFFmpeg

/// Owns a `SwsContext` converting pictures to one pixel format and size (libswscale).
/// Rebuilds itself when the input changes.
public final class ImageScaler {
    public let pixelFormat: AVPixelFormat
    private var context: OpaquePointer?

    public init(pixelFormat: AVPixelFormat) { self.pixelFormat = pixelFormat }

    deinit { sws_freeContext(context) }

    /// Converts `frame` to a new frame of `pixelFormat`, `width` × `height` (the source size by default).
    public func convert(_ frame: Frame, width: Int? = nil, height: Int? = nil) throws(FFmpegError) -> Frame {
        let src = frame.pointer
        let w = Int32(width ?? frame.width), h = Int32(height ?? frame.height)
        context = sws_getCachedContext(context, src.pointee.width, src.pointee.height, AVPixelFormat(rawValue: src.pointee.format),
                                       w, h, pixelFormat, SWS_BICUBIC, nil, nil, nil)
        guard context != nil else { throw FFmpegError(code: tandem_averror(EINVAL), operation: "sws_getCachedContext") }
        let out = Frame()
        out.pointer.pointee.width = w
        out.pointer.pointee.height = h
        out.pointer.pointee.format = pixelFormat.rawValue
        try check(av_frame_get_buffer(out.pointer, 0), "av_frame_get_buffer")
        try check(sws_scale_frame(context, out.pointer, src), "sws_scale_frame")
        out.pointer.pointee.pts = src.pointee.pts
        return out
    }
}
