/// The one line `tandem bench party --json` prints: |skew| of the members against the host in ms
/// (nearest-rank percentiles, as everywhere) and the median half IPC round trip, which bounds the
/// measurement error. A figure without samples is `null`.
struct PartyBenchSummary: Encodable, Sendable, Equatable {
    var samples: Int
    var skewP50Ms: Double
    var skewP95Ms: Double
    var skewP99Ms: Double
    var skewMaxMs: Double
    var ipcHalfRTTp50Ms: Double

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: EventField.self)
        try c.encode(samples, forKey: "samples")
        try c.encode(number: skewP50Ms, forKey: "skewP50Ms")
        try c.encode(number: skewP95Ms, forKey: "skewP95Ms")
        try c.encode(number: skewP99Ms, forKey: "skewP99Ms")
        try c.encode(number: skewMaxMs, forKey: "skewMaxMs")
        try c.encode(number: ipcHalfRTTp50Ms, forKey: "ipcHalfRTTp50Ms")
    }
}
