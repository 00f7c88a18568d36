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
    /// Stories never go blank: over a server that has not answered for the next story's video yet,
    /// `>` slides in that story's poster (loaded ahead from a URL) at once.
    @WindowActor @Suite struct StoryPosterPreloadTests {
        /// A solid magenta poster, unlike anything in the clips.
        static func magentaPNG() throws -> [UInt8] {
            let magenta: [UInt8] = [255, 0, 255, 255]
            let pixels = [[UInt8]](repeating: magenta, count: 64 * 48).flatMap { $0 }
            return try RGBAImage(width: 64, height: 48, pixels: pixels).pngData()
        }

        @Test func aSwipeShowsThePosterBeforeTheNetworkAnswers() async throws {
            SDLTests.useHeadlessDrivers()
            let clip = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestMedia.path("h264-aac.mp4"))))
            let other = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestMedia.path("video-only.mp4"))))
            // Story 1's video is held unanswered: its player cannot open until the test lets it.
            let server = try GatedHTTPServer(files: ["zero.mp4": clip, "one.mp4": other, "one.png": try Self.magentaPNG()],
                                             held: ["one.mp4"])
            defer { server.stop() }
            let window = try PlayerWindow(title: "stories over http", size: .init(width: 320, height: 240))
            defer { window.close() }
            let stories = [Story(url: server.url("zero.mp4")), Story(url: server.url("one.mp4"), poster: server.url("one.png"))]
            let sinks = StorySinks(urls: [], sound: SoundOptions(outputs: .none), warn: { _ in })
            var options = StoryNavigator.Options()
            options.autoAdvance = false
            options.playerOptions = { sinks.playerOptions(for: $0) }
            let navigator = StoryNavigator(stories: stories, options: options)
            let controller = StoryWindowController(navigator: navigator, sinks: sinks)
            await navigator.play()
            let loop = Task { await window.run(controller: controller) }
            #expect(await eventually { sinks.video(for: 0)?.latest() != nil })
            // Loaded ahead, from its URL, while story 0 plays.
            #expect(await eventually { await navigator.posters.cached(1) != nil })

            Self.press(SDLK_PERIOD, modifiers: KMOD_LSHIFT)  // `>`
            #expect(await eventually {
                let scene = controller.scene(in: window)
                return scene.secondaryPoster != nil && scene.slide > 0.5
            }, "the poster slides in while the video is not answered")
            #expect(!server.answered.contains("one.mp4"), "the swipe did not wait for the network")
            var scene = controller.scene(in: window)
            scene.showOverlays = false
            scene.slide = 1
            let shot = try window.capture(scene)
            let (r, g, b) = shot.rgb(x: shot.width / 2, y: shot.height / 2)
            #expect(r > 200 && g < 60 && b > 200, "magenta poster on screen, got \((r, g, b))")

            server.release("one.mp4")
            #expect(await eventually(within: 30) { navigator.snapshot.current?.index == 1 && navigator.snapshot.neighbour == nil })
            #expect(await eventually(within: 30) { sinks.video(for: 1)?.latest() != nil })
            Self.press(SDLK_q)
            await loop.value
            await navigator.close()
        }

        /// The segment indicator over a white picture: a dark band behind it keeps the bars readable.
        @Test func segmentsStayReadableOverALightPicture() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "segments", size: .init(width: 320, height: 240))
            defer { window.close() }
            let white = RGBAImage(width: 32, height: 24, pixels: [UInt8](repeating: 255, count: 32 * 24 * 4))
            let scene = WindowScene(poster: white, segments: StorySegments(index: 0, count: 3, progress: 0.5))
            let shot = try window.capture(scene)
            // Beside the bars (between two of them) and just under them: darker than the white picture.
            let width = (shot.width - 16 - 2 * OverlayRenderer.segmentGap) / 3
            let gap = shot.rgb(x: 8 + width + OverlayRenderer.segmentGap / 2, y: 9)
            let below = shot.rgb(x: shot.width / 2, y: 8 + OverlayRenderer.segmentHeight + 2)
            #expect(gap.0 < 200 && below.0 < 200, "backing behind the segments: \(gap), \(below)")
            // An empty segment still stands out from its backing.
            let empty = shot.rgb(x: 8 + 2 * (width + OverlayRenderer.segmentGap) + width / 2, y: 9)
            #expect(empty.0 > below.0 + 20, "empty bar \(empty) vs backing \(below)")
        }

        static func press(_ key: SDL_KeyCode, modifiers: SDL_Keymod = KMOD_NONE) {
            _ = tandem_sdl_push_key(Int32(bitPattern: key.rawValue), UInt16(modifiers.rawValue), 0)
        }
    }
}

extension SDLTests.StoryPosterPreloadTests {
    /// `--transition cube`: halfway through, each picture is squeezed into its half of the window
    /// (the slide would show the right half of the first story on the left instead), the leaving
    /// face darkened.
    @Test func aCubeTransitionSqueezesBothPicturesIntoTheirFaces() async throws {
        SDLTests.useHeadlessDrivers()
        let window = try PlayerWindow(title: "cube", size: .init(width: 320, height: 240))
        defer { window.close() }
        // A left-to-right ramp: a column's shade tells where in the picture it came from.
        var pixels = [UInt8]()
        for _ in 0..<240 { for x in 0..<320 { let v = UInt8(x * 255 / 319); pixels += [v, v, v, 255] } }
        let ramp = RGBAImage(width: 320, height: 240, pixels: pixels)
        let white = RGBAImage(width: 32, height: 24, pixels: [UInt8](repeating: 255, count: 32 * 24 * 4))
        var scene = WindowScene(slide: 0.5, poster: ramp, secondaryPoster: white, showOverlays: false)
        scene.transition = .cube
        let shot = try window.capture(scene)
        // Column 80 of the squeezed face is column 160 of the ramp (mid grey), darkened: darker than
        // column 160 of the ramp itself, and nothing like the slide's column 240.
        let squeezed = shot.rgb(x: 80, y: 120).0
        #expect(squeezed > 40 && squeezed < 128, "ramp column 160, darkened: \(squeezed)")
        #expect(shot.rgb(x: 10, y: 120).0 < shot.rgb(x: 150, y: 120).0, "the ramp still rises across its face")
        let coming = shot.rgb(x: 240, y: 120).0
        #expect(coming > 100 && coming < 255, "the coming face is the white story, half shaded: \(coming)")
        scene.transition = .slide
        let slid = try window.capture(scene)
        #expect(slid.rgb(x: 80, y: 120).0 > 180, "the slide shows ramp column 240 there: \(slid.rgb(x: 80, y: 120))")
    }

    @Test func cubeFacesShareTheWindow() {
        let half = CubeFaces(slide: 0.5, width: 320)
        #expect(half.primary.x == 0 && half.primary.width == 160 && half.secondary.x == 160 && half.secondary.width == 160)
        let back = CubeFaces(slide: -0.25, width: 400)
        #expect(back.secondary.x == 0 && back.secondary.width == 100 && back.primary.x == 100 && back.primary.width == 300)
        #expect(CubeFaces(slide: 1, width: 320).primary.width == 0)
    }
}
