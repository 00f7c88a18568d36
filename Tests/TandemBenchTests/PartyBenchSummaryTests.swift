import MPVIPC
import Testing
@testable import TandemApp
@testable import TandemBench

/// The one-line summary of `bench party --json`.
@Suite struct PartyBenchSummaryTests {
    @Test func partyBenchSummaryWritesNullWithoutSamples() {
        let none = JSONLineWriter.line(PartyBenchSummary(samples: 0, skewP50Ms: .nan, skewP95Ms: .nan, skewP99Ms: .nan,
                                                         skewMaxMs: .nan, ipcHalfRTTp50Ms: .nan))
        #expect(none == #"{"ipcHalfRTTp50Ms":null,"placementErrorP95Ms":null,"samples":0,"skewMaxMs":null,"skewP50Ms":null,"skewP95Ms":null,"skewP99Ms":null}"#)
        let some = JSONValue.parse(JSONLineWriter.line(PartyBenchSummary(
            samples: 4, skewP50Ms: 0.5, skewP95Ms: 1, skewP99Ms: 1, skewMaxMs: 1.25, ipcHalfRTTp50Ms: 0.05)))
        #expect(some?["skewMaxMs"] == 1.25)
    }
}
