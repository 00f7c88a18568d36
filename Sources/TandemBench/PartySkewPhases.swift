import TandemApp
import PartySimulator

/// The skew samples of `tandem bench party`, per member and phase: while playing, a member's
/// position minus the host's carried to the member's instant at 1×; while both are paused, the
/// plain difference of positions. Member 0 is the host (its own lists stay empty).
package struct PartySkewPhases {
    /// The phases reported (``SkewPhaseClassifier/Phase`` rounds left out have none).
    package enum Kind: CaseIterable, Sendable {
        case steady, afterResume, afterSeek, paused

        package init?(_ phase: SkewPhaseClassifier.Phase) {
            switch phase {
            case .steady: self = .steady
            case .afterResume: self = .afterResume
            case .afterSeek: self = .afterSeek
            case .paused: self = .paused
            case .transition, .mixed: return nil
            }
        }

        /// Whether members play in this phase (skew) rather than stand still (difference).
        package var isPlaying: Bool { self != .paused }
    }

    package private(set) var samples: [[Kind: [Double]]]

    /// Empty lists for `members` members, the host first.
    package init(members: Int) {
        samples = Array(repeating: [:], count: members)
    }

    /// A member's skew against the host in seconds: while playing, positions carried to a common
    /// instant at 1× (rate changes make this off by the rate difference over the IPC gap, microseconds).
    package static func skew(_ member: SkewPhaseClassifier.Reading, host: SkewPhaseClassifier.Reading, playing: Bool) -> Double {
        playing ? member.position - (host.position + (member.instant - host.instant)) : member.position - host.position
    }

    /// Adds a round classified as `phase` (rounds in no reported phase are ignored).
    package mutating func add(_ readings: [SkewPhaseClassifier.Reading], phase: SkewPhaseClassifier.Phase) {
        guard let kind = Kind(phase), let host = readings.first else { return }
        for i in readings.indices.dropFirst() where i < samples.count {
            samples[i][kind, default: []].append(Self.skew(readings[i], host: host, playing: kind.isPlaying))
        }
    }

    /// One member's samples in some phases, in seconds.
    package func member(_ i: Int, in kinds: [Kind]) -> [Double] { kinds.flatMap { samples[i][$0] ?? [] } }

    /// All members' samples in some phases, in seconds.
    package func all(in kinds: [Kind]) -> [Double] { samples.indices.dropFirst().flatMap { member($0, in: kinds) } }
}

/// |skew| figures in ms, nearest-rank percentiles (as `simulate` and BENCHMARKS.md); `nan` without samples.
package struct SkewFigures: Equatable, Sendable {
    package var samples: Int
    package var p50Ms: Double
    package var p95Ms: Double
    package var p99Ms: Double
    package var maxMs: Double

    /// The figures of `skews` in seconds.
    package init(_ skews: [Double]) {
        let ms = skews.map { abs($0) * 1000 }.sorted()
        samples = ms.count
        p50Ms = Percentile.nearestRank(ms, 0.5)
        p95Ms = Percentile.nearestRank(ms, 0.95)
        p99Ms = Percentile.nearestRank(ms, 0.99)
        maxMs = Percentile.nearestRank(ms, 1)
    }
}
