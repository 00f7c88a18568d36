import TandemApp
/// The one line `tandem bench party --json` prints: |skew| of the members against the host in ms
/// (nearest-rank percentiles, as everywhere) and the median half IPC round trip, which bounds the
/// measurement error of players read by round trip. When the members give the instant of their
/// position (`tandem-time-sample`), skew is exact at that instant, and `placementErrorP95Ms` says how
/// far the round trip's middle fell from it: the error the round-trip method would have added.
/// A figure without samples is `null`.
package struct PartyBenchSummary: Encodable, Sendable, Equatable {
    package init(samples: Int, skewP50Ms: Double, skewP95Ms: Double, skewP99Ms: Double, skewMaxMs: Double, ipcHalfRTTp50Ms: Double, placementErrorP95Ms: Double = .nan) {
        self.samples = samples
        self.skewP50Ms = skewP50Ms
        self.skewP95Ms = skewP95Ms
        self.skewP99Ms = skewP99Ms
        self.skewMaxMs = skewMaxMs
        self.ipcHalfRTTp50Ms = ipcHalfRTTp50Ms
        self.placementErrorP95Ms = placementErrorP95Ms
    }

    package var samples: Int
    package var skewP50Ms: Double
    package var skewP95Ms: Double
    package var skewP99Ms: Double
    package var skewMaxMs: Double
    package var ipcHalfRTTp50Ms: Double
    package var placementErrorP95Ms: Double = .nan

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: EventField.self)
        try c.encode(samples, forKey: "samples")
        try c.encode(number: skewP50Ms, forKey: "skewP50Ms")
        try c.encode(number: skewP95Ms, forKey: "skewP95Ms")
        try c.encode(number: skewP99Ms, forKey: "skewP99Ms")
        try c.encode(number: skewMaxMs, forKey: "skewMaxMs")
        try c.encode(number: ipcHalfRTTp50Ms, forKey: "ipcHalfRTTp50Ms")
        try c.encode(number: placementErrorP95Ms, forKey: "placementErrorP95Ms")
    }
}
