import CSDL2

/// Keys only the playback window (`tandem play`) has, on top of the shared ``KeyBinding`` map,
/// after mpv's `input.conf`. A controller that takes them adopts ``PlaybackInputHandling``; the
/// party and story windows keep the shared map (Esc quits there).
///
/// | Keys | Key |
/// |------|-----|
/// | `[` / `]` | speed ×0.9 / ×1.1 |
/// | `{` / `}` | speed ×0.5 / ×2 |
/// | Backspace | speed 1 |
/// | Esc | leave fullscreen (mpv's Esc does not quit) |
/// | Shift+Q | quit, remembering the position |
public enum PlaybackKey: Sendable, Equatable {
    /// mpv's `[`/`]` step: about 10 % of the speed.
    public static let fineSpeedFactor = 1.1
    /// mpv's `{`/`}` step: half or double.
    public static let coarseSpeedFactor = 2.0

    /// Multiply the speed by this.
    case scaleSpeed(Double)
    case resetSpeed
    case leaveFullscreen
    case quitRememberingPosition

    /// The key for a press, or nil when the shared map (or nothing) has it.
    public static func key(keycode: Int32, modifiers: UInt16 = 0, isRepeat: Bool = false) -> PlaybackKey? {
        let mods = UInt32(modifiers)
        if mods & (KMOD_CTRL.rawValue | KMOD_ALT.rawValue | KMOD_GUI.rawValue) != 0 { return nil }
        let shift = mods & KMOD_SHIFT.rawValue != 0
        let key: PlaybackKey?
        switch SDL_KeyCode(rawValue: UInt32(bitPattern: keycode)) {
        case SDLK_LEFTBRACKET: key = .scaleSpeed(shift ? 1 / coarseSpeedFactor : 1 / fineSpeedFactor)
        case SDLK_RIGHTBRACKET: key = .scaleSpeed(shift ? coarseSpeedFactor : fineSpeedFactor)
        case SDLK_BACKSPACE: key = .resetSpeed
        case SDLK_ESCAPE: key = .leaveFullscreen
        case SDLK_q: key = shift ? .quitRememberingPosition : nil
        default: key = nil
        }
        // Held keys repeat the speed steps only (as mpv's repeatable bindings).
        if isRepeat, case .scaleSpeed = key { return key }
        return isRepeat ? nil : key
    }
}

/// A window controller that takes the playback window's own keys and mouse input (before the
/// shared key map sees the key).
@WindowActor
public protocol PlaybackInputHandling: WindowController {
    func handle(_ key: PlaybackKey, window: PlayerWindow)
    func handle(_ gesture: MouseGesture, window: PlayerWindow)
}
