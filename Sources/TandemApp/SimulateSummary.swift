import PartySimulator

/// The one line `tandem simulate --json` prints: the party's figures from a ``SimulationReport``
/// (percentiles nearest-rank), milliseconds and seconds to three decimals, `-1` for a figure that
/// has no value (for example no convergence).
package struct SimulateSummary: Encodable, Sendable, Equatable {
    package var skewP50Ms: Double
    package var skewP99Ms: Double
    package var skewMaxMs: Double
    package var spreadP99Ms: Double
    package var convergenceSeconds: Double
    package var commandSpreadMs: Double
    package var settledCommandSpreadMs: Double
    package var maxRateCorrection: Double
    package var participants: Int
    package var commands: Int
    package var seed: UInt64

    package init(report: SimulationReport, participants: Int, seed: UInt64) {
        skewP50Ms = Self.round3(report.skewP50Ms)
        skewP99Ms = Self.round3(report.skewP99Ms)
        skewMaxMs = Self.round3(report.skewMaxMs)
        spreadP99Ms = Self.round3(report.spreadP99Ms)
        convergenceSeconds = Self.round3(report.convergenceSeconds)
        commandSpreadMs = Self.round3(report.commandSpreadMs)
        settledCommandSpreadMs = Self.round3(report.settledCommandSpreadMs)
        maxRateCorrection = report.maxRateCorrection.isFinite ? report.maxRateCorrection : -1
        self.participants = participants
        commands = report.commands
        self.seed = seed
    }

    /// To three decimals; `-1` when not finite (JSON has no NaN).
    package static func round3(_ value: Double) -> Double { value.isFinite ? (value * 1000).rounded() / 1000 : -1 }
}
