import Testing
import TandemWindow

/// The party window's own words for party news.
@Suite struct PartyWindowNoticeTests {
    @Test func noticesReadAsToasts() {
        #expect(PartyWindowNotice.refused(reason: "only the host can seek").toastText == "Refused: only the host can seek")
        #expect(PartyWindowNotice.joined(name: "Alice").toastText == "Alice joined the party")
        #expect(PartyWindowNotice.left(name: "Bob").toastText == "Bob left")
        #expect(PartyWindowNotice.ended.toastText == "Party ended")
        #expect(PartyWindowNotice.message("<Alice> hi").toastText == "<Alice> hi")
    }

    @Test func theBoardHandsOutEachToastOnceInOrder() {
        let board = NoticeBoard()
        board.post(.joined(name: "Alice"))
        board.post(.ended)
        #expect(board.take() == ["Alice joined the party", "Party ended"])
        #expect(board.take().isEmpty)
    }
}
