/// The one percentile definition behind every figure `tandem simulate`, `tandem bench` and
/// BENCHMARKS.md report: nearest rank.
///
/// The p-th percentile of n sorted values is the value of rank ⌈p·n⌉ (1-based), that is
/// `sorted[ceil(p·n) − 1]`; p = 0 gives the smallest. It is always one of the measured values,
/// never an interpolation. The median is the 50th percentile: for an even count, the lower of
/// the two middle values.
public enum Percentile {
    /// Slack when rounding p·n up, so that p·n landing a rounding error above a whole number
    /// (0.07 × 100 = 7.000000000000001) still means that rank. Far below 1/n for any count here.
    static let rankTolerance = 1e-9

    /// The nearest-rank `p`-th percentile of `sorted` (ascending), with `p` a fraction in 0...1
    /// (clamped). `nan` when there are no values.
    public static func nearestRank(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let fraction = min(max(p, 0), 1)
        let rank = Int((fraction * Double(sorted.count) - rankTolerance).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The nearest-rank `p`-th percentile of `values` in any order.
    public static func nearestRank(of values: [Double], _ p: Double) -> Double {
        nearestRank(values.sorted(), p)
    }

    /// The median by the same definition (the lower middle value for an even count).
    public static func median(of values: [Double]) -> Double {
        nearestRank(of: values, 0.5)
    }
}
