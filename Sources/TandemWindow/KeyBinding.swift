import CSDL2

/// The default key map, after mpv's `input.conf` (and ffplay's): SDL keycode and modifiers in,
/// ``WindowCommand`` out.
///
/// | Keys | Command |
/// |------|---------|
/// | space, p | toggle pause |
/// | ← / → | seek −5 s / +5 s |
/// | ↑ / ↓ | seek +60 s / −60 s |
/// | `<` / `>` (shift+comma / shift+period, or their own keys) | previous / next story |
/// | `.` | frame step |
/// | s | screenshot |
/// | f | fullscreen |
/// | m | mute |
/// | 9 / 0 | volume −2 / +2 points |
/// | j / J | next / previous subtitle track (then off) |
/// | v | subtitles on / off |
/// | z / x | subtitle delay −0.1 s / +0.1 s |
/// | # | next audio track |
/// | End | a live party back to its hold behind the live edge |
/// | Ctrl+− / Ctrl++ (or Ctrl+=) | audio delay −0.1 s / +0.1 s |
/// | q, Esc | quit |
///
/// Other keys held with Ctrl, Alt or the GUI key are left to the desktop. Auto-repeat only repeats seeks
/// and volume steps (as mpv does): a held space does not flicker between pause and play.
public enum KeyBinding {
    /// Short relative seek (mpv's ←/→).
    public static let shortSeek = 5.0
    /// Long relative seek (mpv's ↑/↓).
    public static let longSeek = 60.0
    /// Volume step in percent points (mpv's 9/0).
    public static let volumeStep = 2
    /// Subtitle delay step in seconds (mpv's z/x).
    public static let subtitleDelayStep = 0.1
    /// Audio delay step in seconds (mpv's Ctrl+−/Ctrl++).
    public static let audioDelayStep = 0.1

    /// The command for a key press, or nil when the key is not bound.
    /// - Parameters:
    ///   - keycode: `SDL_Keysym.sym`.
    ///   - modifiers: `SDL_Keysym.mod` (`KMOD_*` bits).
    ///   - isRepeat: the press is an auto-repeat of a held key.
    public static func command(keycode: Int32, modifiers: UInt16 = 0, isRepeat: Bool = false) -> WindowCommand? {
        let mods = UInt32(modifiers)
        if mods & KMOD_CTRL.rawValue != 0, mods & (KMOD_ALT.rawValue | KMOD_GUI.rawValue) == 0 {
            return withControl(SDL_KeyCode(rawValue: UInt32(bitPattern: keycode)))
        }
        if mods & (KMOD_CTRL.rawValue | KMOD_ALT.rawValue | KMOD_GUI.rawValue) != 0 { return nil }
        let shift = mods & KMOD_SHIFT.rawValue != 0
        guard let command = unmodified(SDL_KeyCode(rawValue: UInt32(bitPattern: keycode)), shift: shift) else { return nil }
        if isRepeat {
            switch command {
            case .seek, .volume, .subtitleDelay, .audioDelay: return command
            default: return nil
            }
        }
        return command
    }

    /// Ctrl+−/Ctrl++ (Ctrl+= is + without Shift on most layouts; the keypad's too), repeating as mpv's.
    private static func withControl(_ key: SDL_KeyCode) -> WindowCommand? {
        switch key {
        case SDLK_MINUS, SDLK_KP_MINUS: .audioDelay(-audioDelayStep)
        case SDLK_PLUS, SDLK_EQUALS, SDLK_KP_PLUS: .audioDelay(audioDelayStep)
        default: nil
        }
    }

    private static func unmodified(_ key: SDL_KeyCode, shift: Bool) -> WindowCommand? {
        switch key {
        case SDLK_SPACE, SDLK_p: return .togglePause
        case SDLK_LEFT: return .seek(-shortSeek)
        case SDLK_RIGHT: return .seek(shortSeek)
        case SDLK_UP: return .seek(longSeek)
        case SDLK_DOWN: return .seek(-longSeek)
        case SDLK_LESS: return .previousStory
        case SDLK_GREATER: return .nextStory
        case SDLK_COMMA: return shift ? .previousStory : nil
        case SDLK_PERIOD: return shift ? .nextStory : .step
        case SDLK_s: return .screenshot
        case SDLK_f: return .toggleFullscreen
        case SDLK_m: return .toggleMute
        case SDLK_9: return shift ? nil : .volume(-volumeStep)
        case SDLK_0: return shift ? nil : .volume(volumeStep)
        case SDLK_j: return .cycleSubtitles(forward: !shift)
        case SDLK_v: return shift ? nil : .toggleSubtitles
        case SDLK_z: return shift ? nil : .subtitleDelay(-subtitleDelayStep)
        case SDLK_x: return shift ? nil : .subtitleDelay(subtitleDelayStep)
        case SDLK_HASH: return .cycleAudio
        case SDLK_END: return .goLive
        case SDLK_3: return shift ? .cycleAudio : nil
        case SDLK_q, SDLK_ESCAPE: return .quit
        default: return nil
        }
    }
}
