import Testing
@testable import TandemApp

/// mpv's time forms for `--start`/`--end`.
@Suite struct PlayTimeTests {
    @Test(arguments: [
        ("90", PlayTime.absolute(90)), ("1:30", .absolute(90)), ("01:02:03.5", .absolute(3723.5)),
        ("+1:30", .absolute(90)), ("0.25", .absolute(0.25)), ("-10", .fromEnd(10)), ("-1:00", .fromEnd(60)),
        ("50%", .percent(50)), ("12.5%", .percent(12.5)), ("100:00", .absolute(6000)),
    ])
    func parses(text: String, expected: PlayTime) {
        #expect(PlayTime(parsing: text) == expected)
    }

    @Test(arguments: ["", "abc", "1:90", "1:2:60", "1:2:3:4", "1::2", ":30", "1:30:", "1e3", "inf", "nan",
                      "--5", "1.2.3", "150%", "-5%", "1:-30", ".", "0x10", " "])
    func refuses(text: String) {
        #expect(PlayTime(parsing: text) == nil)
    }

    @Test func resolvesAgainstTheDuration() {
        #expect(PlayTime.absolute(90).seconds(duration: 60) == 60)
        #expect(PlayTime.absolute(90).seconds(duration: nil) == 90)
        #expect(PlayTime.fromEnd(10).seconds(duration: 60) == 50)
        #expect(PlayTime.fromEnd(100).seconds(duration: 60) == 0)
        #expect(PlayTime.fromEnd(10).seconds(duration: nil) == nil)
        #expect(PlayTime.percent(50).seconds(duration: 4) == 2)
        #expect(PlayTime.percent(50).seconds(duration: nil) == nil)
    }
}
