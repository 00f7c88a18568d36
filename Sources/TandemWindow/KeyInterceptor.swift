import CSDL2

/// A ``WindowController`` that may take keys before the key map (``KeyBinding``) sees them: a
/// party window's chat line takes every key and all typed text while it is open, so typing "p"
/// in a message does not pause the party.
@WindowActor
public protocol KeyInterceptor: WindowController {
    /// A key press (`SDL_Keysym.sym`, `SDL_Keysym.mod`); true when it was taken (the key map is
    /// not asked).
    func intercept(keycode: Int32, modifiers: UInt16, window: PlayerWindow) -> Bool
    /// Text typed (SDL_TEXTINPUT, composed by the input method); true when it was taken.
    func intercept(text: String, window: PlayerWindow) -> Bool
}

extension PlayerWindow {
    /// Hands a key or text event to `controller` first when it intercepts keys; true when it was
    /// taken. Called by the event loop for every event before the key map.
    func routeToInterceptor(_ event: SDL_Event, controller: any WindowController) -> Bool {
        guard let interceptor = controller as? any KeyInterceptor else { return false }
        switch event.type {
        case SDL_KEYDOWN.rawValue:
            return interceptor.intercept(keycode: event.key.keysym.sym, modifiers: event.key.keysym.mod, window: self)
        case SDL_TEXTINPUT.rawValue:
            var input = event.text
            let text = withUnsafeBytes(of: &input.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return interceptor.intercept(text: text, window: self)
        default:
            return false
        }
    }

    /// Marks what is on screen as stale: the next turn renders even when no picture changed
    /// (a controller's overlay that the window does not compare, such as the chat line).
    public func setNeedsRedraw() { dirty = true }
}

/// Queues text as if typed (SDL_TEXTINPUT), for tests and scripted input. At most 31 UTF-8
/// bytes per event, as SDL's own events carry.
public func pushTextInput(_ text: String) {
    var event = SDL_Event()
    event.type = SDL_TEXTINPUT.rawValue
    event.text.timestamp = SDL_GetTicks()
    withUnsafeMutableBytes(of: &event.text.text) { raw in
        for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
    SDL_PushEvent(&event)
}
