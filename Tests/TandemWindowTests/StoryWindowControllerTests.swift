import CSDL2
import FFmpegKit
import Foundation
import PlayerCore
import SoundOutput
import StoryKit
import Testing
import TestSupport
@testable import TandemWindow

extension SDLTests {
    /// The story keys through the window's loop: `>` and `<` swipe with both pictures sliding,
    /// the navigator keeps at most two players, and the last story's end closes the window.
    @WindowActor @Suite struct StoryWindowControllerTests {
        static func press(_ key: SDL_KeyCode, modifiers: SDL_Keymod = KMOD_NONE) {
            _ = tandem_sdl_push_key(Int32(bitPattern: key.rawValue), UInt16(modifiers.rawValue), 0)
        }

        static func navigator(_ files: [String], sinks: StorySinks, autoAdvance: Bool = false) -> StoryNavigator {
            var options = StoryNavigator.Options()
            options.autoAdvance = autoAdvance
            options.playerOptions = { sinks.playerOptions(for: $0) }
            return StoryNavigator(stories: files.map { Story(url: TestMedia.path($0)) }, options: options)
        }

        @Test func keysSwipeBetweenStories() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "stories", size: .init(width: 320, height: 240))
            defer { window.close() }
            let files = ["h264-aac.mp4", "vp9-opus.webm", "video-only.mp4"]
            let sinks = StorySinks(urls: files.map(TestMedia.path), sound: SoundOptions(outputs: .none), warn: { _ in })
            let navigator = Self.navigator(files, sinks: sinks)
            let controller = StoryWindowController(navigator: navigator, sinks: sinks)
            await navigator.play()
            let loop = Task { await window.run(controller: controller) }
            #expect(await eventually { sinks.video(for: 0)?.latest() != nil })
            let segments = controller.scene(in: window).segments
            #expect(segments?.index == 0 && segments?.count == 3)

            // `>` is shift+period.
            Self.press(SDLK_PERIOD, modifiers: KMOD_LSHIFT)
            // Mid-swipe: two pictures on screen, sliding.
            #expect(await eventually { abs(controller.scene(in: window).slide) > 0.2 && controller.scene(in: window).slide < 1 })
            #expect(controller.scene(in: window).secondary != nil)
            #expect(await eventually { navigator.snapshot.current?.index == 1 && navigator.snapshot.neighbour == nil })
            #expect(controller.scene(in: window).slide == 0)
            #expect(await eventually { controller.scene(in: window).segments?.index == 1 && !controller.isSwiping })

            Self.press(SDLK_COMMA, modifiers: KMOD_LSHIFT)  // `<`
            #expect(await eventually { navigator.snapshot.current?.index == 0 && navigator.snapshot.neighbour == nil })
            Self.press(SDLK_SPACE)
            #expect(await eventually { navigator.snapshot.current?.player?.state == .paused })
            #expect(await navigator.peakLivePlayers <= 2)
            Self.press(SDLK_q)
            await loop.value
            #expect(controller.quit)
            await navigator.close()
        }

        @Test func slideDrawsBothStoriesSideBySide() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "slide", size: .init(width: 320, height: 240))
            defer { window.close() }
            // Two stories whose pictures differ everywhere: testsrc2 and a plain colour.
            let files = ["h264-aac.mp4", "video-only.mp4"]
            let sinks = StorySinks(urls: files.map(TestMedia.path), sound: SoundOptions(outputs: .none), warn: { _ in })
            let navigator = Self.navigator(files, sinks: sinks)
            await navigator.play()
            await navigator.pause()
            #expect(await navigator.begin(.forward))
            await navigator.neighbourPlayer?.waitUntilReady()
            let controller = StoryWindowController(navigator: navigator, sinks: sinks)
            #expect(await eventually { sinks.video(for: 1)?.latest() != nil && sinks.video(for: 0)?.latest() != nil })
            await navigator.setTransitionProgress(0)
            var scene = controller.scene(in: window)
            scene.showOverlays = false
            window.render(scene)
            let before = try window.readPixels()
            await navigator.setTransitionProgress(0.5)
            scene = controller.scene(in: window)
            scene.showOverlays = false
            #expect(scene.slide == 0.5)
            window.render(scene)
            let during = try window.readPixels()
            // The left half now shows the right half of the first story; the right half is the second story.
            let leftNow = Self.column(during, x: 40), leftWas = Self.column(before, x: 200)
            #expect(Self.difference(leftNow, leftWas) < 12, "left half: the first story moved left")
            let rightNow = Self.column(during, x: 240), firstThere = Self.column(before, x: 240)
            #expect(Self.difference(rightNow, firstThere) > 12, "right half: no longer the first story")
            await navigator.close()
        }

        static func column(_ image: RGBAImage, x: Int) -> [Int] {
            (0..<image.height).flatMap { y in (0..<3).map { Int(image.pixels[(y * image.width + x) * 4 + $0]) } }
        }

        /// Mean absolute difference per channel.
        static func difference(_ a: [Int], _ b: [Int]) -> Double {
            Double(zip(a, b).reduce(0) { $0 + abs($1.0 - $1.1) }) / Double(max(a.count, 1))
        }
    }
}
