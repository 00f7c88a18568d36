import CFFmpeg
import CSDL2
import FFmpegKit
import Foundation
import Testing
@testable import TandemWindow

extension SDLTests {
    @WindowActor @Suite struct PlayerWindowTests {
        @Test func windowCodeRunsOnTheWindowThread() throws {
            SDLTests.useHeadlessDrivers()
            #expect(WindowActor.isCurrentThread)
            let window = try PlayerWindow(title: "test", size: .init(width: 320, height: 240))
            defer { window.close() }
            #expect(window.outputSize == .init(width: 320, height: 240))
        }

        @Test func withoutADisplayTheWindowSaysSo() throws {
            let saved = ProcessInfo.processInfo.environment["DISPLAY"]
            setenv("SDL_VIDEODRIVER", "x11", 1)
            unsetenv("DISPLAY")
            defer {
                if let saved { setenv("DISPLAY", saved, 1) }
                SDLTests.useHeadlessDrivers()
            }
            #expect {
                try PlayerWindow(title: "nowhere", size: .init(width: 320, height: 240))
            } throws: { error in
                guard case WindowError.noDisplay(let reason) = error else { return false }
                return !reason.isEmpty && "\(error)".hasSuffix("use --headless")
            }
        }

        /// With no display at all SDL falls back to its offscreen driver; unless asked for by name
        /// that is "no display" too, not an invisible window.
        @Test(.enabled(if: ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil))
        func anInvisibleFallbackDriverIsNoDisplay() throws {
            let saved = ProcessInfo.processInfo.environment["DISPLAY"]
            unsetenv("SDL_VIDEODRIVER")
            unsetenv("DISPLAY")
            defer {
                if let saved { setenv("DISPLAY", saved, 1) }
                SDLTests.useHeadlessDrivers()
            }
            #expect(throws: WindowError.self) { try PlayerWindow(title: "nowhere", size: .init(width: 320, height: 240)) }
        }

        /// A picture drawn and shown tells its sink how long that took: the lead the presenter gives it.
        @Test func showingAPictureMeasuresTheDrawing() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "delay", size: .init(width: 64, height: 32))
            defer { window.close() }
            let sink = WindowVideoSink()
            sink.store(TestMedia.solidFrame(width: 64, height: 32, TestMedia.red), position: 0)
            #expect(sink.presentationDelay == 0)
            window.render(WindowScene(primary: sink, showOverlays: false))
            #expect(sink.presentationDelay > 0 && sink.presentationDelay <= WindowVideoSink.delaySampleLimit)
        }

        /// During a story swipe both pictures are on screen: at 0.5 the primary's right half on the
        /// left, the secondary's left half on the right; at −0.5 the other way round.
        @Test func aSlideDrawsBothPictures() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "slide", size: .init(width: 64, height: 32))
            defer { window.close() }
            let primary = WindowVideoSink(), secondary = WindowVideoSink()
            primary.store(TestMedia.solidFrame(width: 64, height: 32, TestMedia.red), position: 0)
            secondary.store(TestMedia.solidFrame(width: 64, height: 32, TestMedia.blue), position: 0)
            func isRed(_ p: (Int, Int, Int)) -> Bool { p.0 > 200 && p.1 < 40 && p.2 < 40 }
            func isBlue(_ p: (Int, Int, Int)) -> Bool { p.0 < 40 && p.1 < 40 && p.2 > 200 }
            var scene = WindowScene(primary: primary, secondary: secondary, slide: 0.5, showOverlays: false)
            let forward = try window.capture(scene)
            #expect(isRed(forward.rgb(x: 4, y: 16)) && isRed(forward.rgb(x: 28, y: 16)))
            #expect(isBlue(forward.rgb(x: 36, y: 16)) && isBlue(forward.rgb(x: 60, y: 16)))
            scene.slide = -0.5
            let backward = try window.capture(scene)
            #expect(isBlue(backward.rgb(x: 4, y: 16)) && isRed(backward.rgb(x: 60, y: 16)))
            scene.slide = 0
            let still = try window.capture(scene)
            #expect(isRed(still.rgb(x: 4, y: 16)) && isRed(still.rgb(x: 60, y: 16)))
        }

        @Test func aPosterStandsInUntilThePictureComes() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "poster", size: .init(width: 64, height: 32))
            defer { window.close() }
            let sink = WindowVideoSink()
            let green = RGBAImage(width: 16, height: 8, pixels: Array(repeating: [0, 255, 0, 255], count: 16 * 8).flatMap { $0 })
            let scene = WindowScene(primary: sink, poster: green, showOverlays: false)
            let before = try window.capture(scene)
            #expect(before.rgb(x: 32, y: 16) == (0, 255, 0))
            sink.store(TestMedia.solidFrame(width: 64, height: 32, TestMedia.red), position: 0)
            let after = try window.capture(scene)
            #expect(after.rgb(x: 32, y: 16).0 > 200 && after.rgb(x: 32, y: 16).1 < 40)
        }

        /// ffprobe's rotation −90 (a phone held upright): the frame's left edge ends up at the top.
        @Test func rotatedVideoIsTurnedAndFitted() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "rotated", size: .init(width: 32, height: 64))
            defer { window.close() }
            let frame = TestMedia.solidFrame(width: 64, height: 32, y: 16, u: 128, v: 128)
            let f = frame.pointer
            for row in 0..<32 { (f.pointee.data.0! + row * Int(f.pointee.linesize.0)).update(repeating: 235, count: 32) }
            let sink = WindowVideoSink(rotation: -90)
            sink.store(frame, position: 0)
            let shown = try window.capture(WindowScene(primary: sink, showOverlays: false))
            #expect(shown.rgb(x: 16, y: 8) == (255, 255, 255))
            #expect(shown.rgb(x: 16, y: 56) == (0, 0, 0))
        }

        @Test func screenshotsAreNumberedPNGsOfThePicture() throws {
            SDLTests.useHeadlessDrivers()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-shots-\(getpid())").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let window = try PlayerWindow(title: "shots", size: .init(width: 64, height: 32))
            defer { window.close() }
            let sink = WindowVideoSink()
            sink.store(TestMedia.solidFrame(width: 64, height: 32, TestMedia.red), position: 0)
            window.render(WindowScene(primary: sink, error: "an error line over the picture"))
            let first = try window.saveScreenshot(in: directory)
            let second = try window.saveScreenshot(in: directory)
            #expect(first.hasSuffix("/tandem-shot-0001.png") && second.hasSuffix("/tandem-shot-0002.png"))
            let image = try TestMedia.rgbaImage(atPath: first)
            #expect(image.width == 64 && image.height == 32)
            // The picture without the overlays.
            #expect(image.pixels.indices.filter { $0 % 4 == 0 }.allSatisfy { image.pixels[$0] > 200 && image.pixels[$0 + 1] < 40 })
        }

        @Test func fullscreenToggles() throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "fullscreen", size: .init(width: 64, height: 32))
            defer { window.close() }
            #expect(!window.isFullscreen)
            window.toggleFullscreen()
            #expect(window.isFullscreen)
            window.toggleFullscreen()
            #expect(!window.isFullscreen)
        }
    }
}
