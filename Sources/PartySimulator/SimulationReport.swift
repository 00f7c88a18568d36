import PartyKit
import MediaTime
/// What `tandem simulate` measures, per participant and for the party. Percentiles are nearest-rank
/// (``Percentile``).
public struct SimulationReport: Sendable, Codable {
    public struct Member: Sendable, Codable {
        public var name: String
        public var samples: Int
        public var skewP50Ms: Double
        public var skewP95Ms: Double
        public var skewP99Ms: Double
        public var skewMaxMs: Double
        public var maxRateCorrection: Double
        public var seeks: Int
    }

    public var members: [Member]
    /// Over all members' |skew| against the reference clock.
    public var skewP50Ms: Double
    public var skewP99Ms: Double
    public var skewMaxMs: Double
    /// Spread between members (max − min skew at one instant), p99.
    public var spreadP99Ms: Double
    /// From the mid-way join until that member's |skew| stays under 10 ms.
    public var convergenceSeconds: Double
    /// Largest spread of the true instants at which members applied one command.
    public var commandSpreadMs: Double
    /// The same, counting only members that had measured their clock for 5 s at the instant
    /// (the first command right after everyone joins is as good as a second of exchanges).
    public var settledCommandSpreadMs: Double
    public var maxRateCorrection: Double
    public var commands: Int
}

/// One skew measurement, for the CSV and the plot.
public struct SkewSample: Sendable {
    public var time: Double
    public var member: Int
    public var skew: Double
    public var correction: Double
}
