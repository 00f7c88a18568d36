import CFFmpeg
import CLibass
import FFmpegKit

extension SubtitleCompositor {
    /// Blends one libass image (an 8-bit coverage mask of one colour, `color` = RRGGBBAA with AA the
    /// transparency) onto an RGBA frame, clipped to it.
    static func blend(_ image: ASS_Image, onto frame: Frame) {
        guard let bitmap = image.bitmap, image.w > 0, image.h > 0, let base = frame.pointer.pointee.data.0 else { return }
        let stride = Int(frame.pointer.pointee.linesize.0)
        let r = Int(image.color >> 24), g = Int((image.color >> 16) & 0xff), b = Int((image.color >> 8) & 0xff)
        let opacity = 255 - Int(image.color & 0xff)
        let x0 = max(0, Int(image.dst_x)), y0 = max(0, Int(image.dst_y))
        let x1 = min(frame.width, Int(image.dst_x) + Int(image.w)), y1 = min(frame.height, Int(image.dst_y) + Int(image.h))
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            let mask = bitmap + (y - Int(image.dst_y)) * Int(image.stride) - Int(image.dst_x)
            let row = base + y * stride
            for x in x0..<x1 {
                let alpha = Int(mask[x]) * opacity
                guard alpha > 0 else { continue }
                let p = row + x * 4
                p[0] = mix(p[0], r, alpha)
                p[1] = mix(p[1], g, alpha)
                p[2] = mix(p[2], b, alpha)
            }
        }
    }

    /// Blends a bitmap subtitle (straight RGBA), scaled from its canvas to the frame's size with the
    /// nearest source pixel.
    static func blend(_ bitmap: SubtitleBitmap, onto frame: Frame) {
        guard let base = frame.pointer.pointee.data.0, bitmap.canvasWidth > 0, bitmap.canvasHeight > 0 else { return }
        let stride = Int(frame.pointer.pointee.linesize.0)
        let sx = Double(frame.width) / Double(bitmap.canvasWidth), sy = Double(frame.height) / Double(bitmap.canvasHeight)
        let image = bitmap.image
        let x0 = max(0, Int((Double(bitmap.x) * sx).rounded())), y0 = max(0, Int((Double(bitmap.y) * sy).rounded()))
        let x1 = min(frame.width, Int((Double(bitmap.x + image.width) * sx).rounded()))
        let y1 = min(frame.height, Int((Double(bitmap.y + image.height) * sy).rounded()))
        guard x0 < x1, y0 < y1 else { return }
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in y0..<y1 {
                let srcY = min(image.height - 1, max(0, Int(Double(y) / sy) - bitmap.y))
                let row = base + y * stride
                for x in x0..<x1 {
                    let srcX = min(image.width - 1, max(0, Int(Double(x) / sx) - bitmap.x))
                    let s = (srcY * image.width + srcX) * 4
                    let alpha = Int(pixels[s + 3]) * 255
                    guard alpha > 0 else { continue }
                    let p = row + x * 4
                    p[0] = mix(p[0], Int(pixels[s]), alpha)
                    p[1] = mix(p[1], Int(pixels[s + 1]), alpha)
                    p[2] = mix(p[2], Int(pixels[s + 2]), alpha)
                }
            }
        }
    }

    /// `under` moved toward `over` by `alpha` / 255², rounded.
    @inline(__always)
    private static func mix(_ under: UInt8, _ over: Int, _ alpha: Int) -> UInt8 {
        UInt8((Int(under) * (65025 - alpha) + over * alpha + 32512) / 65025)
    }
}
