import CFFmpeg
import Testing
@testable import FFmpegKit

/// libswscale through ImageScaler, on pictures whose pixels are known.
@Suite struct ImageScalerTests {
    /// Bicubic weights sum to one but are rounded to 14 bits: a flat area may come out one step off.
    static let roundingSteps = 1

    @Test func aConversionAtTheSameSizeKeepsEveryPixel() throws {
        let source = SyntheticMedia.rgba(width: 5, height: 3) { x, y in [UInt8(x * 50), UInt8(y * 100), UInt8(x * y * 10), 255] }
        let rgb = try ImageScaler(pixelFormat: AV_PIX_FMT_RGB24).convert(source)
        #expect(rgb.width == 5 && rgb.height == 3 && rgb.pixelFormatName == "rgb24")
        var bytes: [UInt8] = []
        let n = try rgb.copyPackedImage(into: &bytes)
        #expect(n == 5 * 3 * 3)
        var expected: [UInt8] = []
        for y in 0..<3 { for x in 0..<5 { expected += [UInt8(x * 50), UInt8(y * 100), UInt8(x * y * 10)] } }
        #expect(Array(bytes.prefix(n)) == expected)
    }

    /// Four flat quadrants halved: each quadrant's outer corner keeps its colour (the filter only
    /// reaches its own quadrant there), and the picture has the asked size.
    @Test func halvingKeepsEachQuadrantsColour() throws {
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]]
        let source = SyntheticMedia.rgba(width: 16, height: 16) { x, y in colours[(y / 8) * 2 + x / 8] }
        let small = try ImageScaler(pixelFormat: AV_PIX_FMT_RGBA).convert(source, width: 8, height: 8)
        #expect(small.width == 8 && small.height == 8)
        var bytes: [UInt8] = []
        _ = try small.copyPackedImage(into: &bytes)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bytes[(y * 8 + x) * 4..<(y * 8 + x) * 4 + 4]) }
        let corners = [(0, 0), (7, 0), (0, 7), (7, 7)]
        for (k, (x, y)) in corners.enumerated() {
            let got = pixel(x, y)
            #expect(zip(got, colours[k]).allSatisfy { abs(Int($0) - Int($1)) <= Self.roundingSteps }, "(\(x), \(y)): \(got)")
        }
    }

    @Test func aFlatPictureStaysFlatAtAnySize() throws {
        let grey: [UInt8] = [90, 90, 90, 255]
        let source = SyntheticMedia.rgba(width: 10, height: 6) { _, _ in grey }
        let scaler = ImageScaler(pixelFormat: AV_PIX_FMT_RGBA)
        for (w, h) in [(25, 15), (3, 2)] {
            let out = try scaler.convert(source, width: w, height: h)
            var bytes: [UInt8] = []
            let n = try out.copyPackedImage(into: &bytes)
            #expect(n == w * h * 4)
            #expect(bytes.prefix(n).enumerated().allSatisfy { abs(Int($1) - Int(grey[$0 % 4])) <= Self.roundingSteps }, "\(w)x\(h)")
        }
    }
}
