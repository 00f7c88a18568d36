import CSDL2
import FFmpegKit
import Foundation
import PlayerCore
import Testing
import TestSupport
@testable import TandemWindow

extension SDLTests {
    /// Key presses injected into SDL's queue go through the window's loop, the key map and the
    /// controller to a real player.
    @WindowActor @Suite struct PlayerWindowControllerTests {
        static func press(_ key: SDL_KeyCode, modifiers: SDL_Keymod = KMOD_NONE) {
            _ = tandem_sdl_push_key(Int32(bitPattern: key.rawValue), UInt16(modifiers.rawValue), 0)
        }

        @Test func keysDriveThePlayer() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "keys", size: .init(width: 160, height: 120))
            defer { window.close() }
            let sink = WindowVideoSink()
            let player = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
            let controller = PlayerWindowController(player: player, video: sink, audio: nil)
            var quits = 0
            controller.onQuit = { quits += 1 }
            player.play()
            let loop = Task { await window.run(controller: controller) }

            #expect(await eventually { player.state == .playing && sink.latest() != nil })
            Self.press(SDLK_SPACE)
            #expect(await eventually { player.state == .paused })
            Self.press(SDLK_SPACE)
            #expect(await eventually { player.state == .playing })
            let before = player.position
            Self.press(SDLK_RIGHT)
            #expect(await eventually { controller.seekTarget == nil && player.position >= before + 4.5 })
            #expect(await eventually { (sink.latest()?.position ?? 0) >= before + 4.5 })  // the picture moved too
            Self.press(SDLK_0)
            #expect(await eventually { controller.scene(in: window).volume == 100 })  // capped
            Self.press(SDLK_9)
            #expect(await eventually { controller.scene(in: window).volume == 98 })
            Self.press(SDLK_PERIOD)
            #expect(await eventually { player.state == .paused })  // a frame step pauses
            Self.press(SDLK_q)
            await loop.value
            #expect(controller.quit && quits == 1)
            #expect(window.lastPictures?.primaryGeneration ?? 0 > 0)  // pictures were drawn
            await player.close()
        }

        @Test func closingTheWindowEndsTheLoop() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "close", size: .init(width: 160, height: 120))
            defer { window.close() }
            let player = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil))
            let controller = PlayerWindowController(player: player, video: nil, audio: nil)
            let loop = Task { await window.run(controller: controller) }
            _ = tandem_sdl_push_quit()
            await loop.value
            #expect(controller.quit)
            await player.close()
        }

        /// Like mpv: at the end of the file the window ends by itself.
        @Test func theLoopEndsAtTheEndOfTheFile() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "end", size: .init(width: 320, height: 240))
            defer { window.close() }
            let sink = WindowVideoSink()
            let player = try await Player.open(TestMedia.path("h264-aac.mp4"), options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
            let controller = PlayerWindowController(player: player, video: sink, audio: nil)
            await player.seek(to: 3.6)
            player.play()
            await window.run(controller: controller)
            #expect(player.state == .ended)
            #expect(!controller.quit)
            #expect((sink.latest()?.position ?? 0) >= 3.9)  // the last picture was shown
            await player.close()
        }
    }
}
