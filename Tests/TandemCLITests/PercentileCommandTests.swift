import Testing
@testable import TandemCLI

/// `tandem bench percentile`: the nearest-rank percentile of numbers on standard input, for scripts.
@Suite struct PercentileCommandTests {
    @Test func percentileForScriptsIsNearestRank() {
        typealias Command = BenchCommand.PercentileOfInput
        #expect(Command.answer("3 1 2 4", percent: 50) == "2")  // the lower middle, as everywhere
        #expect(Command.answer("12.5\n10.25\n11\n", percent: 50) == "11")
        #expect(Command.answer("1.5 2.5", percent: 50) == "1.5")
        #expect(Command.answer("15 20 35 40 50", percent: 40) == "20")
        #expect(Command.answer("15 20 35 40 50", percent: 100) == "50")
        #expect(Command.answer("", percent: 50) == "NA")
        #expect(Command.answer("1 NA 2", percent: 50) == "NA")
    }
}
