import FFmpegKit

/// A separable box blur on RGBA pictures. Three passes approximate a Gaussian closely enough
/// for a background (the classic result: repeated box filters converge to a Gaussian).
enum BoxBlur {
    static let passes = 3

    /// Blurs `image` with a box of half-width `radius` (pixels), `passes` times per axis.
    static func blur(_ image: RGBAImage, radius: Int) -> RGBAImage {
        guard radius > 0, image.width > 0, image.height > 0 else { return image }
        var pixels = image.pixels
        var scratch = pixels
        for _ in 0..<passes {
            pass(from: pixels, to: &scratch, count: image.height, length: image.width, step: 4, stride: image.width * 4, radius: radius)
            pass(from: scratch, to: &pixels, count: image.width, length: image.height, step: image.width * 4, stride: 4, radius: radius)
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Blurs `count` lines of `length` pixels; `step` is the byte distance between neighbours in a
    /// line, `stride` between lines. Edges repeat the border pixel. A running sum keeps it O(n).
    private static func pass(from src: [UInt8], to dst: inout [UInt8], count: Int, length: Int, step: Int, stride: Int, radius: Int) {
        let window = 2 * radius + 1
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                for line in 0..<count {
                    let base = line * stride
                    for channel in 0..<4 {
                        @inline(__always) func at(_ i: Int) -> Int { Int(s[base + min(max(i, 0), length - 1) * step + channel]) }
                        var sum = 0
                        for i in -radius...radius { sum += at(i) }
                        for i in 0..<length {
                            d[base + i * step + channel] = UInt8((sum + window / 2) / window)
                            sum += at(i + radius + 1) - at(i - radius)
                        }
                    }
                }
            }
        }
    }
}
