import Testing
@testable import TandemApp
@testable import TandemCLI

/// The config file's lines as `tandem play` reads them: each one checked by the command's own parser.
@Suite struct ConfigFileTests {
    @Test func configLinesBecomeOptions() throws {
        let text = "speed=1.5\n# a comment\n\nloop-file\nshuffle=no\n  start = 1:30   # inline\n--slang=en\nsub-file=\"a b.srt\"\n"
        let arguments = try ConfigFile.arguments(text, path: "t.conf", isOption: PlayCommand.optionProblem)
        #expect(arguments == ["--speed=1.5", "--loop-file", "--start=1:30", "--slang=en", "--sub-file=a b.srt"])
    }

    @Test(arguments: [
        ("speed=1\nspeed\n", 2, "speed needs a value (speed=VALUE)"),
        ("what is this\n", 1, "expected name=value, got \"what is this\""),
        ("loop-file=maybe\n", 1, "loop-file takes yes or no, not \"maybe\""),
        ("framemd5=x.txt\n", 1, "framemd5 is for the command line only"),
    ])
    func aBadLineNamesTheFileAndLine(text: String, line: Int, message: String) {
        #expect(throws: ConfigFile.LineError(path: "/c/tandem.conf", line: line, message: message)) {
            try ConfigFile.arguments(text, path: "/c/tandem.conf", isOption: PlayCommand.optionProblem)
        }
    }

    @Test func optionsAreCheckedByTheCommandsOwnParser() {
        #expect(PlayCommand.optionProblem("speed", "1.5") == nil)
        #expect(PlayCommand.optionProblem("start", "-10") == nil)
        #expect(PlayCommand.optionProblem("bogus", "1")?.contains("--bogus") == true)
        #expect(PlayCommand.optionProblem("start", "soon") != nil)
    }
}
