import FFmpegKit
import Foundation
import Testing
@testable import TandemWindow

extension SDLTests {
    /// The overlay text grows with the window.
    @WindowActor @Suite struct TextScaleTests {
        /// Rows of the bottom strip holding the clock's bright text.
        static func clockRows(_ image: RGBAImage) -> Int {
            let strip = (image.height * 2 / 3)..<(image.height - OverlayRenderer.margin - OverlayRenderer.barHeight - 2)
            return strip.filter { y in (0..<(image.width / 3)).contains { image.rgb(x: $0, y: y).0 > 150 } }.count
        }

        @Test func theClockIsTallerInABiggerWindow() throws {
            SDLTests.useHeadlessDrivers()
            let small = try PlayerWindow(title: "small", size: .init(width: 320, height: 240))
            let smallRows = Self.clockRows(try small.capture(WindowScene(position: 14, duration: 60)))
            small.close()
            let big = try PlayerWindow(title: "big", size: .init(width: 960, height: 720))
            defer { big.close() }
            #expect(big.outputSize.height == 720)
            let bigRows = Self.clockRows(try big.capture(WindowScene(position: 14, duration: 60)))
            #expect(big.overlay.fontPoints == 24)  // 1.5× (the width's ratio, 960/640)
            #expect(smallRows > 5)
            #expect(Double(bigRows) > Double(smallRows) * 1.3, "\(smallRows) → \(bigRows) rows")
        }

        @Test func theSizeRule() {
            #expect(OverlayRenderer.fontSize(for: .init(width: 320, height: 240)) == 16)
            #expect(OverlayRenderer.fontSize(for: .init(width: 1280, height: 720)) == 32)
            #expect(OverlayRenderer.fontSize(for: .init(width: 400, height: 1080)) == 16)  // narrow: the width decides
            #expect(OverlayRenderer.fontSize(for: .init(width: 3840, height: 2160)) == 48)
        }
    }
}
