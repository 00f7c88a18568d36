import CSDL2

/// The chat line: Enter opens it; while it is open every key and all typed text go to it (not to
/// playback), Enter sends the line as party chat, Esc closes it. Chat from others shows as toasts.
extension PartyWindowController: KeyInterceptor {
    public func intercept(keycode: Int32, modifiers: UInt16, window: PlayerWindow) -> Bool {
        let mods = UInt32(modifiers)
        let key = SDL_KeyCode(rawValue: UInt32(bitPattern: keycode))
        let event: ChatLineState.Event?
        switch key {
        case SDLK_RETURN, SDLK_KP_ENTER, SDLK_RETURN2: event = .enter
        case SDLK_ESCAPE: event = .escape
        case SDLK_BACKSPACE: event = .backspace
        case SDLK_u where mods & KMOD_CTRL.rawValue != 0: event = .clear
        default: event = nil
        }
        guard chat.isOpen || (event == .enter && mods & (KMOD_CTRL.rawValue | KMOD_ALT.rawValue | KMOD_GUI.rawValue) == 0),
              endReason == nil || chat.isOpen
        else { return false }
        // Open: every key is the chat line's (its text comes as SDL_TEXTINPUT).
        if let event { apply(event, window: window) }
        return true
    }

    public func intercept(text: String, window: PlayerWindow) -> Bool {
        guard chat.isOpen else { return false }
        apply(.text(text), window: window)
        return true
    }

    private func apply(_ event: ChatLineState.Event, window: PlayerWindow) {
        switch chat.handle(event) {
        case .ignored:
            return
        case .redraw:
            break
        case .send(let line):
            let member = member
            Task { await member.chat(line) }
        }
        window.setNeedsRedraw()
    }
}
