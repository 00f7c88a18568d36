import FFmpegKit
import Foundation
import Testing
@testable import TandemWindow

extension SDLTests {
    /// "Paused" never runs into the clock: in a narrow window it goes on its own line above it.
    @WindowActor @Suite struct PausedPlacementTests {
        /// Bright pixels in the band above the clock's line (where the stacked "Paused" goes).
        static func aboveClock(_ image: RGBAImage) -> Int {
            OverlayRendererTests.brightPixels(image, rows: (image.height - 70)..<(image.height - 44), columns: 0..<image.width)
        }

        @Test func aNarrowWindowStacksPausedAboveTheClock() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "narrow", size: .init(width: 160, height: 120))
            defer { window.close() }
            #expect(window.outputSize.width == 160)
            let paused = try window.capture(WindowScene(position: 14, duration: 60, paused: true))
            let playing = try window.capture(WindowScene(position: 14, duration: 60, paused: false))
            #expect(Self.aboveClock(paused) > 20)
            #expect(Self.aboveClock(playing) == 0)
        }

        @Test func aWideWindowKeepsPausedBesideTheClock() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "wide", size: .init(width: 480, height: 120))
            defer { window.close() }
            let paused = try window.capture(WindowScene(position: 14, duration: 60, paused: true))
            #expect(Self.aboveClock(paused) == 0)
            let clockRow = (paused.height - 40)..<(paused.height - 20)
            #expect(OverlayRendererTests.brightPixels(paused, rows: clockRow, columns: 400..<480) > 20)
        }

        @Test func theRule() {
            #expect(OverlayRenderer.pausedFitsBesideClock(clockWidth: 80, pausedWidth: 55, width: 320))
            #expect(!OverlayRenderer.pausedFitsBesideClock(clockWidth: 80, pausedWidth: 55, width: 160))
        }
    }
}
