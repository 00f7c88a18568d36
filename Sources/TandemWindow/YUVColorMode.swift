import CFFmpeg
import CSDL2

/// The YUV→RGB matrix and range SDL uses for a texture, chosen from the frame's colour
/// properties as ffplay does (`set_sdl_yuv_conversion_mode`). SDL's setting is process-global:
/// the window sets it before creating and before updating each texture.
enum YUVColorMode: Sendable, Equatable {
    /// BT.601, full range (JPEG, `yuvj*` formats).
    case jpeg
    /// BT.601, limited range: SD video and anything unlabelled below HD.
    case bt601
    /// BT.709, limited range: HD video.
    case bt709

    /// Unlabelled pictures taller than this are taken as HD (BT.709), as SDL's automatic mode does.
    static let hdMinimumHeight = 576

    /// The mode for a frame about to be uploaded as-is (8-bit 4:2:0).
    init(frame: UnsafePointer<AVFrame>) {
        let f = frame.pointee
        if f.color_range == AVCOL_RANGE_JPEG || f.format == AV_PIX_FMT_YUVJ420P.rawValue {
            self = .jpeg
        } else {
            self.init(matrix: f.colorspace, height: Int(f.height))
        }
    }

    /// The mode for a frame converted to limited-range yuv420p by libswscale: the matrix is kept, the
    /// range is limited (swscale converts `yuvj*` formats; it keeps the values of others).
    init(convertedFrom frame: UnsafePointer<AVFrame>) {
        let f = frame.pointee
        let pixel = AVPixelFormat(rawValue: f.format)
        let rgb = av_pix_fmt_desc_get(pixel).map { $0.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 } ?? false
        if rgb {
            self = .bt601  // swscale's default RGB→YUV matrix
        } else if f.color_range == AVCOL_RANGE_JPEG && !Self.isJPEGFormat(pixel) {
            self = .jpeg
        } else {
            self.init(matrix: f.colorspace, height: Int(f.height))
        }
    }

    private init(matrix: AVColorSpace, height: Int) {
        switch matrix {
        case AVCOL_SPC_BT709, AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: self = .bt709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M, AVCOL_SPC_FCC: self = .bt601
        default: self = height > Self.hdMinimumHeight ? .bt709 : .bt601
        }
    }

    private static func isJPEGFormat(_ f: AVPixelFormat) -> Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P].contains(f)
    }

    var sdl: SDL_YUV_CONVERSION_MODE {
        switch self {
        case .jpeg: SDL_YUV_CONVERSION_JPEG
        case .bt601: SDL_YUV_CONVERSION_BT601
        case .bt709: SDL_YUV_CONVERSION_BT709
        }
    }
}
