import CSDL2
import Foundation
import PlayerCore
import Testing
import TestSupport
@testable import TandemWindow

/// The controls' visibility and the mouse's gestures, as pure values.
struct ControlsVisibilityTests {
    @Test func hideAfterADelayWhilePlayingAndComeBackOnInput() {
        var controls = ControlsVisibility()
        let delay = ControlsVisibility.hideDelay
        let seen = [controls.visible(at: 100, paused: false),  // at the start
                    controls.visible(at: 100 + delay - 0.01, paused: false),
                    controls.visible(at: 100 + delay + 0.01, paused: false),
                    controls.visible(at: 102, paused: true)]  // paused: always
        #expect(seen == [true, true, false, true])
        controls.input(at: 103)
        let after = [controls.visible(at: 103.5, paused: false), controls.visible(at: 104.5, paused: false)]
        #expect(after == [true, false])
    }

    @Test func gestures() {
        #expect(MouseGesture.fraction(x: 12, width: 324, margin: 12) == 0)
        #expect(MouseGesture.fraction(x: 162, width: 324, margin: 12) == 0.5)
        #expect(MouseGesture.fraction(x: 400, width: 324, margin: 12) == 1)
        #expect(MouseGesture.press(x: 162, y: 230, clicks: 1, width: 324, height: 240, margin: 12) == .seekToFraction(0.5))
        #expect(MouseGesture.press(x: 162, y: 230, clicks: 2, width: 324, height: 240, margin: 12) == .seekToFraction(0.5))
        #expect(MouseGesture.press(x: 162, y: 100, clicks: 1, width: 324, height: 240, margin: 12) == nil)
        #expect(MouseGesture.press(x: 162, y: 100, clicks: 2, width: 324, height: 240, margin: 12) == .toggleFullscreen)
        #expect(MouseGesture.wheel(steps: 1) == .seek(10))
        #expect(MouseGesture.wheel(steps: -2) == .seek(-10))
        #expect(MouseGesture.wheel(steps: 0) == nil)
    }
}

extension SDLTests {
    /// Mouse events injected into SDL's queue reach the player through the window's loop.
    @WindowActor @Suite struct MouseWindowTests {
        static func pushButton(_ type: SDL_EventType, x: Int32, y: Int32, clicks: UInt8 = 1) {
            var event = SDL_Event()
            event.type = type.rawValue
            event.button.button = UInt8(SDL_BUTTON_LEFT)
            event.button.state = UInt8(type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED)
            event.button.clicks = clicks
            event.button.x = x
            event.button.y = y
            _ = SDL_PushEvent(&event)
        }

        static func pushMotion(x: Int32, y: Int32, leftHeld: Bool) {
            var event = SDL_Event()
            event.type = SDL_MOUSEMOTION.rawValue
            event.motion.state = leftHeld ? PlayerWindow.leftButtonMask : 0
            event.motion.x = x
            event.motion.y = y
            _ = SDL_PushEvent(&event)
        }

        static func pushWheel(_ steps: Int32) {
            var event = SDL_Event()
            event.type = SDL_MOUSEWHEEL.rawValue
            event.wheel.y = steps
            event.wheel.direction = SDL_MOUSEWHEEL_NORMAL.rawValue
            _ = SDL_PushEvent(&event)
        }

        @Test func clickDragAndWheelSeek() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "mouse", size: .init(width: 324, height: 240))
            defer { window.close() }
            let player = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil))
            let duration = try #require(player.duration)
            let controller = PlayerWindowController(player: player, video: nil, audio: nil)
            player.pause()
            let loop = Task { await window.run(controller: controller) }
            let size = window.outputSize
            let barY = Int32(size.height - OverlayRenderer.margin - 2)
            // Half way along the bar.
            Self.pushButton(SDL_MOUSEBUTTONDOWN, x: Int32(size.width / 2), y: barY)
            #expect(await eventually { controller.seekTarget == nil && abs(player.position - duration / 2) < 0.2 })
            // Dragged to a quarter, then released: motion after the release does not seek.
            Self.pushMotion(x: Int32(OverlayRenderer.margin + (size.width - 2 * OverlayRenderer.margin) / 4), y: barY, leftHeld: true)
            #expect(await eventually { controller.seekTarget == nil && abs(player.position - duration / 4) < 0.2 })
            Self.pushButton(SDL_MOUSEBUTTONUP, x: 0, y: barY)
            Self.pushMotion(x: Int32(size.width - 20), y: barY, leftHeld: false)
            Self.pushWheel(1)
            #expect(await eventually { controller.seekTarget == nil && abs(player.position - (duration / 4 + MouseGesture.wheelSeek)) < 0.2 })
            // A single click off the bar does nothing; a double click toggles fullscreen.
            Self.pushButton(SDL_MOUSEBUTTONDOWN, x: 100, y: 50, clicks: 1)
            Self.pushButton(SDL_MOUSEBUTTONDOWN, x: 100, y: 50, clicks: 2)
            #expect(await eventually { window.isFullscreen })
            _ = tandem_sdl_push_quit()
            await loop.value
            await player.close()
        }

        @Test func theControlsHideWhilePlayingAndAMoveBringsThemBack() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "autohide", size: .init(width: 320, height: 240))
            defer { window.close() }
            window.setAutoHidesControls(true)
            let sink = WindowVideoSink()
            let player = try await Player.open(TestMedia.path("party.mp4"), options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
            let controller = PlayerWindowController(player: player, video: sink, audio: nil)
            player.play()
            let loop = Task { await window.run(controller: controller) }
            #expect(await eventually { window.lastLayout?.controls == true })
            #expect(await eventually { window.lastLayout?.controls == false && window.pointerHidden })
            Self.pushMotion(x: 10, y: 10, leftHeld: false)
            #expect(await eventually { window.lastLayout?.controls == true && !window.pointerHidden })
            player.pause()
            #expect(await eventually { window.lastLayout?.paused == true })
            // Paused: they stay, however long.
            let pausedAt = Date()
            #expect(await eventually(within: 30) { Date().timeIntervalSince(pausedAt) > ControlsVisibility.hideDelay * 1.5 })
            #expect(window.lastLayout?.controls == true)
            _ = tandem_sdl_push_quit()
            await loop.value
            await player.close()
        }
    }
}
