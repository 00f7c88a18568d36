import Foundation
@testable import PartySimulator
import Testing
@testable import TandemApp

/// The one-line summary of `simulate --json`.
@Suite struct SummaryLinesTests {
    @Test func simulateSummaryRoundsAndMarksMissingFigures() throws {
        let report = SimulationReport(
            members: [], skewP50Ms: 0.12345, skewP99Ms: 1.5, skewMaxMs: 2.0004, spreadP99Ms: 0.75,
            convergenceSeconds: .nan, commandSpreadMs: 0.2, settledCommandSpreadMs: 0.1, maxRateCorrection: 0.0021,
            commands: 6)
        let line = JSONLineWriter.line(SimulateSummary(report: report, participants: 3, seed: 7))
        #expect(line == #"{"commandSpreadMs":0.2,"commands":6,"convergenceSeconds":-1,"maxRateCorrection":0.0021,"participants":3,"seed":7,"settledCommandSpreadMs":0.1,"skewMaxMs":2,"skewP50Ms":0.123,"skewP99Ms":1.5,"spreadP99Ms":0.75}"#)
    }
}
