import CFFmpeg

/// Owns a `SwsContext` converting pictures to one pixel format and size (libswscale).
/// Rebuilds itself when the input changes.
public final class ImageScaler {
    public let pixelFormat: AVPixelFormat
    /// Converting YUV to RGB with the picture's own matrix and range (BT.709 for HD) rather than
    /// libswscale's default BT.601: for pictures shown in place of the decoded ones (subtitles drawn
    /// on them), whose colours must not shift.
    public let followsColorspace: Bool
    private var context: OpaquePointer?

    /// Unlabelled pictures taller than this are taken as HD (BT.709), as the window takes them.
    static let hdMinimumHeight = 576

    public init(pixelFormat: AVPixelFormat, followsColorspace: Bool = false) {
        self.pixelFormat = pixelFormat
        self.followsColorspace = followsColorspace
    }

    deinit { sws_freeContext(context) }

    /// Converts `frame` to a new frame of `pixelFormat`, `width` × `height` (the source size by default).
    public func convert(_ frame: Frame, width: Int? = nil, height: Int? = nil) throws(FFmpegError) -> Frame {
        let src = frame.pointer
        let w = Int32(width ?? frame.width), h = Int32(height ?? frame.height)
        context = sws_getCachedContext(context, src.pointee.width, src.pointee.height, AVPixelFormat(rawValue: src.pointee.format),
                                       w, h, pixelFormat, SWS_BICUBIC, nil, nil, nil)
        guard context != nil else { throw FFmpegError(code: tandem_averror(EINVAL), operation: "sws_getCachedContext") }
        if followsColorspace {
            let matrix: Int32 = switch src.pointee.colorspace {
            case AVCOL_SPC_BT709: SWS_CS_ITU709
            case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
            case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: SWS_CS_ITU601
            default: src.pointee.height > Self.hdMinimumHeight ? SWS_CS_ITU709 : SWS_CS_ITU601
            }
            let fullRange: Int32 = src.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
            _ = sws_setColorspaceDetails(context, sws_getCoefficients(matrix), fullRange,
                                         sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
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
