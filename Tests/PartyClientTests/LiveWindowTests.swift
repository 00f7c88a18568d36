@testable import PartyClient
import Testing

/// When a live item's first picture says the party's moment has left the stream's window.
@Suite struct LiveWindowTests {
    @Test func aFrameLateIsTheMomentAndSecondsLateAreNot() {
        #expect(LiveWindow.note(moment: 12, firstPicture: 12.04) == nil)
        #expect(LiveWindow.note(moment: 12, firstPicture: 12 + LiveWindow.goneThreshold - 0.01) == nil)
        #expect(LiveWindow.note(moment: 12, firstPicture: 11.9) == nil)
        #expect(LiveWindow.note(moment: 2, firstPicture: 9.5)
            == "the party's moment (2.0 s) has left the live stream's window: showing it from 9.5 s, 7.5 s later")
    }
}
