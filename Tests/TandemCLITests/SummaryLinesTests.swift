import Foundation
import MPVIPC
@testable import PartySimulator
import Testing
@testable import TandemCLI
@testable import TandemApp
@testable import TandemBench

/// The one-line summaries of `simulate --json` and `bench party --json`, and `bench percentile`.
@Suite struct SummaryLinesTests {
    @Test func simulateSummaryRoundsAndMarksMissingFigures() throws {
        let report = SimulationReport(
            members: [], skewP50Ms: 0.12345, skewP99Ms: 1.5, skewMaxMs: 2.0004, spreadP99Ms: 0.75,
            convergenceSeconds: .nan, commandSpreadMs: 0.2, settledCommandSpreadMs: 0.1, maxRateCorrection: 0.0021,
            commands: 6)
        let line = JSONLineWriter.line(SimulateSummary(report: report, participants: 3, seed: 7))
        #expect(line == #"{"commandSpreadMs":0.2,"commands":6,"convergenceSeconds":-1,"maxRateCorrection":0.0021,"participants":3,"seed":7,"settledCommandSpreadMs":0.1,"skewMaxMs":2,"skewP50Ms":0.123,"skewP99Ms":1.5,"spreadP99Ms":0.75}"#)
    }

    @Test func partyBenchSummaryWritesNullWithoutSamples() {
        let none = JSONLineWriter.line(PartyBenchSummary(samples: 0, skewP50Ms: .nan, skewP95Ms: .nan, skewP99Ms: .nan,
                                                         skewMaxMs: .nan, ipcHalfRTTp50Ms: .nan))
        #expect(none == #"{"ipcHalfRTTp50Ms":null,"placementErrorP95Ms":null,"samples":0,"skewMaxMs":null,"skewP50Ms":null,"skewP95Ms":null,"skewP99Ms":null}"#)
        let some = JSONValue.parse(JSONLineWriter.line(PartyBenchSummary(
            samples: 4, skewP50Ms: 0.5, skewP95Ms: 1, skewP99Ms: 1, skewMaxMs: 1.25, ipcHalfRTTp50Ms: 0.05)))
        #expect(some?["skewMaxMs"] == 1.25)
    }

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
