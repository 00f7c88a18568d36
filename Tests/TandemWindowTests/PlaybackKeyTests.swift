import CSDL2
import Foundation
import PlayerCore
import Testing
import TestSupport
@testable import TandemWindow

/// The playback window's own keys (speed, Esc, Shift+Q) and `<`/`>` in a playlist.
struct PlaybackKeyTests {
    static let shift = UInt16(KMOD_LSHIFT.rawValue)
    static func key(_ k: SDL_KeyCode) -> Int32 { Int32(bitPattern: k.rawValue) }

    @Test func theMap() {
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_LEFTBRACKET)) == .scaleSpeed(1 / 1.1))
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_RIGHTBRACKET)) == .scaleSpeed(1.1))
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_LEFTBRACKET), modifiers: Self.shift) == .scaleSpeed(0.5))
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_RIGHTBRACKET), modifiers: Self.shift) == .scaleSpeed(2))
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_BACKSPACE)) == .resetSpeed)
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_ESCAPE)) == .leaveFullscreen)
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_q), modifiers: Self.shift) == .quitRememberingPosition)
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_q)) == nil)  // the shared map's quit
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_RIGHTBRACKET), isRepeat: true) == .scaleSpeed(1.1))
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_q), modifiers: Self.shift, isRepeat: true) == nil)
        #expect(PlaybackKey.key(keycode: Self.key(SDLK_ESCAPE), modifiers: UInt16(KMOD_LCTRL.rawValue)) == nil)
    }
}

extension SDLTests {
    @WindowActor @Suite struct PlaybackWindowKeyTests {
        static func press(_ key: SDL_KeyCode, modifiers: SDL_Keymod = KMOD_NONE) {
            _ = tandem_sdl_push_key(Int32(bitPattern: key.rawValue), UInt16(modifiers.rawValue), 0)
        }

        @Test func speedKeysEscAndShiftQ() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "speed", size: .init(width: 160, height: 120))
            defer { window.close() }
            let sink = WindowVideoSink()
            let player = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
            let controller = PlayerWindowController(player: player, video: sink, audio: nil)
            player.play()
            let loop = Task { await window.run(controller: controller) }
            Self.press(SDLK_RIGHTBRACKET)
            #expect(await eventually { abs(player.rate - 1.1) < 1e-9 })
            Self.press(SDLK_RIGHTBRACKET, modifiers: KMOD_LSHIFT)
            #expect(await eventually { abs(player.rate - 2.2) < 1e-9 })
            #expect(controller.toasts.last?.text == "Speed: 2.20")
            Self.press(SDLK_LEFTBRACKET, modifiers: KMOD_LSHIFT)
            Self.press(SDLK_LEFTBRACKET)
            #expect(await eventually { abs(player.rate - 1) < 1e-9 })
            Self.press(SDLK_RIGHTBRACKET, modifiers: KMOD_LSHIFT)
            Self.press(SDLK_BACKSPACE)
            Self.press(SDLK_ESCAPE)  // not fullscreen: nothing (it does not quit)
            Self.press(SDLK_p)
            #expect(await eventually { player.state == .paused })
            #expect(player.rate == 1 && !controller.quit)
            Self.press(SDLK_q, modifiers: KMOD_LSHIFT)
            await loop.value
            #expect(controller.quit && controller.remembersPosition)
            await player.close()
        }

        @Test func screenshotsGoToTheScreenshotDirectory() async throws {
            SDLTests.useHeadlessDrivers()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-shots-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let window = try PlayerWindow(title: "shots", size: .init(width: 160, height: 120))
            defer { window.close() }
            let sink = WindowVideoSink()
            let player = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
            let controller = PlayerWindowController(player: player, video: sink, audio: nil)
            controller.screenshotDirectory = folder.path
            player.play()
            let loop = Task { await window.run(controller: controller) }
            #expect(await eventually { sink.latest() != nil })
            Self.press(SDLK_s)
            #expect(await eventually { controller.toasts.last?.text == "Screenshot: tandem-shot-0001.png" })
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tandem-shot-0001.png").path))
            Self.press(SDLK_q)
            await loop.value
            await player.close()
        }

        @Test func playlistKeysEndTheTurnWithAStep() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "playlist", size: .init(width: 160, height: 120))
            defer { window.close() }
            let player = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil))
            let controller = PlayerWindowController(player: player, video: nil, audio: nil)
            player.play()
            Self.press(SDLK_PERIOD, modifiers: KMOD_LSHIFT)  // one file: ignored…
            Self.press(SDLK_q)
            await window.run(controller: controller)
            #expect(controller.quit && controller.playlistStep == nil)
            let second = PlayerWindowController(player: player, video: nil, audio: nil)
            second.hasPlaylist = true
            Self.press(SDLK_LESS)  // …in a playlist: the previous item
            await window.run(controller: second)
            #expect(!second.quit && second.playlistStep == -1)
            second.clearPlaylistStep()
            Self.press(SDLK_GREATER)
            await window.run(controller: second)
            #expect(second.playlistStep == 1)
            await player.close()
        }
    }
}
