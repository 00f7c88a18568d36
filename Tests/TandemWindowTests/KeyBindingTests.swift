import CSDL2
import Testing
import TandemWindow

struct KeyBindingTests {
    static let shift = UInt16(KMOD_LSHIFT.rawValue)

    static func key(_ k: SDL_KeyCode) -> Int32 { Int32(bitPattern: k.rawValue) }

    static let bindings: [(SDL_KeyCode, UInt16, WindowCommand)] = [
        (SDLK_SPACE, 0, .togglePause), (SDLK_p, 0, .togglePause),
        (SDLK_LEFT, 0, .seek(-5)), (SDLK_RIGHT, 0, .seek(5)), (SDLK_UP, 0, .seek(60)), (SDLK_DOWN, 0, .seek(-60)),
        (SDLK_COMMA, shift, .previousStory), (SDLK_PERIOD, shift, .nextStory),
        (SDLK_LESS, 0, .previousStory), (SDLK_GREATER, 0, .nextStory), (SDLK_LESS, shift, .previousStory),
        (SDLK_PERIOD, 0, .step), (SDLK_s, 0, .screenshot), (SDLK_f, 0, .toggleFullscreen), (SDLK_m, 0, .toggleMute),
        (SDLK_9, 0, .volume(-2)), (SDLK_0, 0, .volume(2)), (SDLK_q, 0, .quit), (SDLK_ESCAPE, 0, .quit),
        (SDLK_j, 0, .cycleSubtitles(forward: true)), (SDLK_j, shift, .cycleSubtitles(forward: false)),
        (SDLK_v, 0, .toggleSubtitles), (SDLK_z, 0, .subtitleDelay(-0.1)), (SDLK_x, 0, .subtitleDelay(0.1)),
        (SDLK_HASH, 0, .cycleAudio), (SDLK_3, shift, .cycleAudio), (SDLK_END, 0, .goLive),
    ]

    @Test(arguments: bindings)
    func everyBinding(key: SDL_KeyCode, modifiers: UInt16, command: WindowCommand) {
        #expect(KeyBinding.command(keycode: Self.key(key), modifiers: modifiers) == command)
    }

    @Test func letterBindingsIgnoreShiftAndCapsLock() {
        #expect(KeyBinding.command(keycode: Self.key(SDLK_q), modifiers: Self.shift) == .quit)
        #expect(KeyBinding.command(keycode: Self.key(SDLK_SPACE), modifiers: UInt16(KMOD_CAPS.rawValue)) == .togglePause)
        #expect(KeyBinding.command(keycode: Self.key(SDLK_f), modifiers: UInt16(KMOD_NUM.rawValue)) == .toggleFullscreen)
    }

    @Test func unshiftedCommaIsNotBound() {
        #expect(KeyBinding.command(keycode: Self.key(SDLK_COMMA)) == nil)
    }

    @Test(arguments: [KMOD_LCTRL, KMOD_RALT, KMOD_LGUI])
    func desktopModifiersAreLeftAlone(modifier: SDL_Keymod) {
        #expect(KeyBinding.command(keycode: Self.key(SDLK_q), modifiers: UInt16(modifier.rawValue)) == nil)
        #expect(KeyBinding.command(keycode: Self.key(SDLK_RIGHT), modifiers: UInt16(modifier.rawValue)) == nil)
    }

    /// mpv's Ctrl+− / Ctrl++ (Ctrl+= where + needs Shift, and the keypad's): the audio delay.
    @Test func controlMinusAndPlusMoveTheAudioDelay() {
        let ctrl = UInt16(KMOD_LCTRL.rawValue)
        #expect(KeyBinding.command(keycode: Self.key(SDLK_MINUS), modifiers: ctrl) == .audioDelay(-0.1))
        #expect(KeyBinding.command(keycode: Self.key(SDLK_KP_MINUS), modifiers: ctrl) == .audioDelay(-0.1))
        #expect(KeyBinding.command(keycode: Self.key(SDLK_PLUS), modifiers: ctrl) == .audioDelay(0.1))
        #expect(KeyBinding.command(keycode: Self.key(SDLK_EQUALS), modifiers: ctrl | Self.shift) == .audioDelay(0.1))
        #expect(KeyBinding.command(keycode: Self.key(SDLK_KP_PLUS), modifiers: ctrl, isRepeat: true) == .audioDelay(0.1))
        #expect(KeyBinding.command(keycode: Self.key(SDLK_MINUS)) == nil)
        #expect(KeyBinding.command(keycode: Self.key(SDLK_MINUS), modifiers: ctrl | UInt16(KMOD_LALT.rawValue)) == nil)
    }

    @Test(arguments: [SDLK_a, SDLK_RETURN, SDLK_F1, SDLK_1, SDLK_UNKNOWN])
    func unboundKeys(key: SDL_KeyCode) {
        #expect(KeyBinding.command(keycode: Self.key(key)) == nil)
    }

    @Test func autoRepeatRepeatsSeeksAndVolumeOnly() {
        #expect(KeyBinding.command(keycode: Self.key(SDLK_RIGHT), isRepeat: true) == .seek(5))
        #expect(KeyBinding.command(keycode: Self.key(SDLK_0), isRepeat: true) == .volume(2))
        #expect(KeyBinding.command(keycode: Self.key(SDLK_SPACE), isRepeat: true) == nil)
        #expect(KeyBinding.command(keycode: Self.key(SDLK_f), isRepeat: true) == nil)
        #expect(KeyBinding.command(keycode: Self.key(SDLK_q), isRepeat: true) == nil)
    }
}
