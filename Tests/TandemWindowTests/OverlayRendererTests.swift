import FFmpegKit
import Foundation
import Testing
@testable import TandemWindow

extension SDLTests {
    @WindowActor @Suite struct OverlayRendererTests {
        static let size = DisplayGeometry.Size(width: 320, height: 240)

        /// Bright pixels (text or the bar's fill) in the bottom strip, where the clock and bar are.
        static func brightPixels(_ image: RGBAImage, rows: Range<Int>, columns: Range<Int>) -> Int {
            var n = 0
            for y in rows { for x in columns where image.rgb(x: x, y: y).0 > 150 { n += 1 } }
            return n
        }

        @Test func overlaysDrawTheClockAndBarOnlyWhenShown() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "overlay", size: Self.size)
            defer { window.close() }
            #expect(window.overlay.hasFont)
            var scene = WindowScene(position: 12, duration: 60)
            let on = try window.capture(scene)
            scene.showOverlays = false
            let off = try window.capture(scene)
            let strip = (Self.size.height - 50)..<Self.size.height
            #expect(off.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 })  // black, nothing drawn
            // The clock "0:12 / 1:00" at the left above the bar: white text.
            #expect(Self.brightPixels(on, rows: strip, columns: 12..<110) > 30)
            // The bar filled to 12/60 of its width, not beyond.
            let barRow = Self.size.height - OverlayRenderer.margin - 2
            let filled = (0..<Self.size.width).filter { on.rgb(x: $0, y: barRow).0 > 150 }
            let expected = Int(Double(Self.size.width - 2 * OverlayRenderer.margin) * 0.2)
            #expect(abs(filled.count - expected) <= 1)
            #expect(filled.first == OverlayRenderer.margin)
        }

        @Test func withoutTheFontEverythingButTextIsDrawn() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "no font", size: Self.size)
            defer { window.close() }
            let overlay = OverlayRenderer(renderer: window.renderer, fontPath: "/nonexistent/font.ttf", logger: window.logger)
            defer { overlay.destroy() }
            #expect(!overlay.hasFont)
            let layout = overlay.layout(WindowScene(position: 30, duration: 60, status: "status", error: "error"),
                                        size: Self.size, now: 0)
            overlay.draw(layout)
            #expect(overlay.cachedTexts == 0)
        }

        @Test func textIsRasterisedOncePerString() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "cache", size: Self.size)
            defer { window.close() }
            let scene = WindowScene(position: 1, duration: 60, status: "3 watching · skew +1.2 ms")
            window.render(scene)
            let count = window.overlay.cachedTexts
            for _ in 0..<5 { window.render(scene) }
            #expect(window.overlay.cachedTexts == count)
            #expect(count >= 2)  // the clock and the status line
        }

        @Test func toastsLastThreeSecondsAndFade() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "toasts", size: Self.size)
            defer { window.close() }
            let overlay = window.overlay
            let scene = WindowScene(toasts: [Toast(id: 1, text: "Alice joined the party")])
            overlay.observe(scene, now: 100)
            #expect(overlay.layout(scene, size: Self.size, now: 100.5).toasts.map(\.alpha) == [255])
            let fading = try #require(overlay.layout(scene, size: Self.size, now: 102.8).toasts.first)
            #expect(fading.alpha < 255 && fading.alpha > 0)
            #expect(overlay.layout(scene, size: Self.size, now: 103.1).toasts.isEmpty)
            // Same text, new id: shown again, stacked under the expired one's place.
            let again = WindowScene(toasts: [Toast(id: 1, text: "Alice joined the party"), Toast(id: 2, text: "Alice joined the party"),
                                             Toast(id: 3, text: "Bob joined the party")])
            overlay.observe(again, now: 104)
            #expect(overlay.layout(again, size: Self.size, now: 104.1).toasts.map(\.text) == ["Alice joined the party", "Bob joined the party"])
        }

        @Test func volumeAndMuteChangesShowAnOSDLine() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "osd", size: Self.size)
            defer { window.close() }
            let overlay = window.overlay
            var scene = WindowScene(volume: 100)
            overlay.observe(scene, now: 0)
            #expect(overlay.layout(scene, size: Self.size, now: 0).osd == nil)  // nothing changed yet
            scene.volume = 50
            overlay.observe(scene, now: 1)
            #expect(overlay.layout(scene, size: Self.size, now: 1).osd == "Volume: 50%")
            overlay.observe(scene, now: 1 + OverlayRenderer.osdSeconds + 0.1)
            #expect(overlay.layout(scene, size: Self.size, now: 3).osd == nil)
            scene.muted = true
            overlay.observe(scene, now: 4)
            #expect(overlay.layout(scene, size: Self.size, now: 4).osd == "Mute: yes")
        }

        @Test func storySegmentsFillUpToTheCurrentOne() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "segments", size: Self.size)
            defer { window.close() }
            let scene = WindowScene(segments: StorySegments(index: 1, count: 3, progress: 0.5))
            let layout = window.overlay.layout(scene, size: Self.size, now: 0)
            let width = (Self.size.width - 16 - 2 * OverlayRenderer.segmentGap) / 3
            #expect(layout.segments == .init(index: 1, count: 3, fill: width / 2))
            let image = try window.capture(scene)
            let y = 9
            #expect(image.rgb(x: 8 + width / 2, y: y).0 > 200)                                  // first: full
            #expect(image.rgb(x: 8 + width + OverlayRenderer.segmentGap + 2, y: y).0 > 200)      // second: started
            #expect(image.rgb(x: 8 + 2 * (width + OverlayRenderer.segmentGap) + width / 2, y: y).0 < 120)  // third: empty
        }

        @Test(arguments: [(0.0, "0:00"), (12.7, "0:12"), (60, "1:00"), (3599.9, "59:59"), (3665, "1:01:05"), (-3, "0:00"),
                          (.nan, "0:00")])
        func clockText(seconds: Double, text: String) {
            #expect(OverlayRenderer.clock(seconds) == text)
        }

        /// A live item shows how far behind the edge it is where a duration would be, and no fill.
        @Test func aLiveItemShowsLiveAndHowFarBehind() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "live", size: Self.size)
            defer { window.close() }
            let overlay = OverlayRenderer(renderer: window.renderer, fontPath: "/nonexistent/font.ttf", logger: window.logger)
            defer { overlay.destroy() }
            var scene = WindowScene(position: 75, duration: 0)
            scene.behindLive = 6.4
            let layout = overlay.layout(scene, size: Self.size, now: 0)
            #expect(layout.clock == "1:15 · LIVE −6s")
            #expect(layout.barFill == nil)
            #expect(OverlayRenderer.liveText(behindEdge: 0.3) == "LIVE")
        }
    }
}
