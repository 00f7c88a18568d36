import Testing
@testable import PartySimulator
import PartyKit

@Suite struct SimulationReportTests {
    @Test func percentileOfSortedValues() {
        let values = (1...101).map(Double.init)
        #expect(SimulationReport.percentile(values, 0) == 1)
        #expect(SimulationReport.percentile(values, 0.5) == 51)
        #expect(SimulationReport.percentile(values, 0.99) == 100)
        #expect(SimulationReport.percentile(values, 1) == 101)
        #expect(SimulationReport.percentile([7], 0.99) == 7)
        #expect(SimulationReport.percentile([1, 2], 0.5) == 2)  // rounds to the nearest rank
        // Out-of-range fractions stay in range.
        #expect(SimulationReport.percentile(values, 2) == 101)
        #expect(SimulationReport.percentile(values, -1) == 1)
        #expect(SimulationReport.percentile([], 0.5).isNaN)
    }
}
