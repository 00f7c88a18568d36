import Testing
import TandemWindow

/// The party window's own words for party news.
@Suite struct PartyWindowNoticeTests {
    @Test func noticesReadAsToasts() {
        #expect(PartyWindowNotice.refused(reason: "only the host can seek").toastText == "Refused: only the host can seek")
        #expect(PartyWindowNotice.joined(name: "Alice").toastText == "Alice joined the party")
        #expect(PartyWindowNotice.left(name: "Bob").toastText == "Bob left")
        #expect(PartyWindowNotice.ended(reason: "the host Alice left the party").toastText
                == "Party ended: the host Alice left the party", "the reason once, without a second prefix")
        #expect(PartyWindowNotice.ended(reason: "").toastText == "Party ended")
        #expect(PartyWindowNotice.message("<Alice> hi").toastText == "<Alice> hi")
    }

    @Test func theBoardHandsOutEachToastOnceInOrder() {
        let board = NoticeBoard()
        board.post(.joined(name: "Alice"))
        #expect(!board.partyEnded)
        board.post(.ended(reason: "the host left the party"))
        #expect(board.take() == [.joined(name: "Alice"), .ended(reason: "the host left the party")])
        #expect(board.take().isEmpty)
        #expect(board.partyEnded, "the end is remembered after its toast was taken")
    }
}
