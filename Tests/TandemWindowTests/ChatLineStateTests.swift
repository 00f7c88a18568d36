import Testing
import TandemWindow

/// The party window's chat line as a state machine: closed until Enter, then it takes text and
/// editing keys; Enter sends, Esc cancels.
@Suite struct ChatLineStateTests {
    @Test func enterOpensTypingEditsAndEnterSends() {
        var chat = ChatLineState()
        #expect(chat.handle(.text("p")) == .ignored, "closed: a key is a playback key")
        #expect(chat.handle(.backspace) == .ignored)
        #expect(!chat.isOpen)
        #expect(chat.handle(.enter) == .redraw)
        #expect(chat.text == "")
        #expect(chat.handle(.text("héllo wörld")) == .redraw)
        #expect(chat.handle(.backspace) == .redraw)
        #expect(chat.text == "héllo wörl")
        #expect(chat.handle(.text("d 👍🏽")) == .redraw)
        #expect(chat.handle(.backspace) == .redraw, "the whole emoji with its skin tone goes")
        #expect(chat.text == "héllo wörld ")
        #expect(chat.handle(.enter) == .send("héllo wörld"), "sent trimmed")
        #expect(!chat.isOpen)
    }

    @Test func escapeCancelsAndAnEmptyLineSendsNothing() {
        var chat = ChatLineState()
        _ = chat.handle(.enter)
        _ = chat.handle(.text("never mind"))
        #expect(chat.handle(.escape) == .redraw)
        #expect(!chat.isOpen)
        #expect(chat.handle(.enter) == .redraw)
        #expect(chat.text == "", "Esc left nothing behind")
        _ = chat.handle(.text("   "))
        #expect(chat.handle(.enter) == .redraw, "blank: closed, nothing sent")
        #expect(!chat.isOpen)
    }

    @Test func clearEmptiesAndTheLineIsCapped() {
        var chat = ChatLineState()
        _ = chat.handle(.enter)
        _ = chat.handle(.text("abc"))
        #expect(chat.handle(.clear) == .redraw)
        #expect(chat.text == "")
        _ = chat.handle(.text(String(repeating: "x", count: ChatLineState.maxCharacters + 50)))
        #expect(chat.text?.count == ChatLineState.maxCharacters)
        _ = chat.handle(.text("line\nbreak"))
        #expect(chat.text?.contains("\n") == false)
    }
}
