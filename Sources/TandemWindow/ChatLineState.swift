/// The chat line of a party window, as a state machine: closed until Enter opens it; while open,
/// typed text and editing keys go to it (not to playback), Enter sends the line as party chat and
/// closes it, Esc closes it without sending.
///
/// Text comes as SDL's text-input strings (already composed by the input method, any script);
/// editing is by whole characters (grapheme clusters), so Backspace never splits an accent or an emoji.
public struct ChatLineState: Sendable, Equatable {
    /// A key or text the window hands the chat line.
    public enum Event: Sendable, Equatable {
        /// Enter (or keypad Enter).
        case enter
        /// Esc.
        case escape
        case backspace
        /// Ctrl-U: clear the line.
        case clear
        /// Text typed (SDL_TEXTINPUT).
        case text(String)
    }

    /// What the window does after an event.
    public enum Action: Sendable, Equatable {
        /// The event was not for the chat line (it is closed and the key is not Enter): a playback key.
        case ignored
        /// The line opened, changed or closed: redraw it.
        case redraw
        /// Enter on a non-empty line: send this text as party chat (the line is closed again).
        case send(String)
    }

    /// Characters kept: a chat line, not a document (the party's own message cap is far above;
    /// this keeps a paste from growing the overlay without bound).
    public static let maxCharacters = 500

    /// Nil while closed; the text typed so far while open.
    public private(set) var text: String?

    public init() {}

    public var isOpen: Bool { text != nil }

    public mutating func handle(_ event: Event) -> Action {
        guard let current = text else {
            guard event == .enter else { return .ignored }
            text = ""
            return .redraw
        }
        switch event {
        case .enter:
            text = nil
            let line = current.trimmingWhitespace
            return line.isEmpty ? .redraw : .send(line)
        case .escape:
            text = nil
            return .redraw
        case .backspace:
            guard !current.isEmpty else { return .redraw }
            text = String(current.dropLast())
            return .redraw
        case .clear:
            text = ""
            return .redraw
        case .text(let typed):
            let room = Self.maxCharacters - current.count
            let kept = typed.filter { !$0.isNewline }.prefix(max(0, room))
            text = current + kept
            return .redraw
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
