/// The chat line being typed on a terminal, as a state machine fed one byte at a time (the
/// terminal is in non-canonical mode, so Tandem, not the terminal, echoes what is typed: the
/// status line then never writes over it).
///
/// Keys: printable text (UTF-8), Backspace, Ctrl-U (clear), Ctrl-W (last word), Enter (send);
/// escape sequences (arrows, function keys) are swallowed whole.
package struct LineEditorState: Sendable, Equatable {
    package enum Event: Sendable, Equatable {
        /// The line as shown changed.
        case changed
        /// Enter: this line is sent (the editor is empty again).
        case submitted(String)
    }

    /// A line longer than this is not a chat line: further bytes are dropped (the server's own
    /// message cap is far above it; this keeps a pasted file from growing without bound).
    package static let maxBytes = 4096

    package private(set) var bytes: [UInt8] = []
    private var escape = EscapeState.none

    private enum EscapeState: Sendable, Equatable {
        case none
        /// ESC seen: the next byte says what kind of sequence.
        case started
        /// Inside CSI (`ESC [`) or SS3 (`ESC O`): bytes until a final byte (0x40–0x7E).
        case sequence
    }

    /// The line typed so far (invalid UTF-8 shown as U+FFFD).
    package var line: String { String(decoding: bytes, as: UTF8.self) }
    package var isEmpty: Bool { bytes.isEmpty }

    package mutating func feed(_ byte: UInt8) -> Event? {
        switch escape {
        case .started:
            escape = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .sequence : .none
            return nil
        case .sequence:
            if (0x40...0x7E).contains(byte) { escape = .none }
            return nil
        case .none:
            break
        }
        switch byte {
        case 0x1B:
            escape = .started
            return nil
        case 0x0D, 0x0A:
            let text = line
            bytes.removeAll()
            return .submitted(text)
        case 0x7F, 0x08:
            guard !bytes.isEmpty else { return nil }
            // One character: its UTF-8 continuation bytes (10xxxxxx) go with it.
            while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            return .changed
        case 0x15:
            guard !bytes.isEmpty else { return nil }
            bytes.removeAll()
            return .changed
        case 0x17:
            guard !bytes.isEmpty else { return nil }
            while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
            while let last = bytes.last, last != UInt8(ascii: " ") { bytes.removeLast() }
            return .changed
        case 0x00..<0x20:
            return nil  // other control characters (Ctrl-C is a signal, not a byte, with ISIG on)
        default:
            guard bytes.count < Self.maxBytes else { return nil }
            bytes.append(byte)
            return .changed
        }
    }
}
