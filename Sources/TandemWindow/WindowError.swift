import CSDL2

/// Why a window (or one of its SDL objects) could not be made.
public enum WindowError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SDL's video subsystem or the window could not start: no display (no `DISPLAY` for X11,
    /// no Wayland compositor) or no usable video driver.
    case noDisplay(String)
    /// Another SDL call failed (renderer, texture, reading pixels…).
    case sdl(String)

    public var description: String {
        switch self {
        case .noDisplay(let reason): "cannot open a window (no display: \(reason)); use --headless"
        case .sdl(let reason): reason
        }
    }
}

/// SDL's last error message for the calling thread.
func sdlError() -> String {
    let message = String(cString: SDL_GetError())
    return message.isEmpty ? "unknown SDL error" : message
}
