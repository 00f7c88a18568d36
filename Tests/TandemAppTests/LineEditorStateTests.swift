import Testing
@testable import TandemApp

struct LineEditorStateTests {
    static func type(_ text: String, into editor: inout LineEditorState) -> [LineEditorState.Event] {
        Array(text.utf8).compactMap { editor.feed($0) }
    }

    @Test func enterSendsTheLineAndEmptiesIt() {
        var e = LineEditorState()
        let events = Self.type("héllo\r", into: &e)
        #expect(events.last == .submitted("héllo"))
        #expect(e.isEmpty)
    }

    @Test func backspaceRemovesAWholeCharacter() {
        var e = LineEditorState()
        _ = Self.type("ab€", into: &e)
        #expect(e.feed(0x7F) == .changed)
        #expect(e.line == "ab")
        #expect(e.feed(0x7F) == .changed && e.feed(0x7F) == .changed)
        #expect(e.feed(0x7F) == nil, "nothing left to remove")
    }

    @Test func ctrlUClearsAndCtrlWRemovesTheLastWord() {
        var e = LineEditorState()
        _ = Self.type("see you  ", into: &e)
        #expect(e.feed(0x17) == .changed)
        #expect(e.line == "see ")
        #expect(e.feed(0x15) == .changed)
        #expect(e.isEmpty)
    }

    @Test func arrowKeysAndOtherControlsAreSwallowed() {
        var e = LineEditorState()
        _ = Self.type("a\u{1B}[A\u{1B}[1;5Cb\u{1B}OP\u{07}c", into: &e)
        #expect(e.line == "abc")
    }

    @Test func aLineIsCapped() {
        var e = LineEditorState()
        _ = Self.type(String(repeating: "x", count: LineEditorState.maxBytes + 100), into: &e)
        #expect(e.bytes.count == LineEditorState.maxBytes)
    }
}
