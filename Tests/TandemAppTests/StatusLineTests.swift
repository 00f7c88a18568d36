import Testing
@testable import TandemApp

/// The terminal status line, as mpv's.
@Suite struct StatusLineTests {
    @Test func pausedIsSaidFirstAsMPVDoes() {
        #expect(EventOutput.statusLine(paused: true, video: true, audio: true, position: 3.2, duration: 10,
                                       avDifference: 0.001, rate: 1, dropped: 0)
                == "(Paused) AV: 00:00:03 / 00:00:10 A-V: +0.001 Dropped: 0")
        #expect(EventOutput.statusLine(paused: false, video: true, audio: false, position: 61, duration: nil,
                                       avDifference: 0.5, rate: 1.5, dropped: 2)
                == "V: 00:01:01 / --:--:-- Speed: 1.50x Dropped: 2")
    }
}
