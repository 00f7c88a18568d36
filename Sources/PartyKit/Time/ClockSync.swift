import DequeModule
import Foundation

/// Estimates the party clock (the server's) from a client's clock with NTP's four timestamps.
///
/// - Each exchange gives offset θ = ((t1 − t0) + (t2 − t3)) / 2 and round-trip delay δ = (t3 − t0) − (t2 − t1).
///   θ is off by at most δ/2 (the unknown asymmetry). The estimate takes the lowest one-way time of
///   each direction over a window instead: their half-difference is θ when the base latency is symmetric.
/// - A line through those samples' offsets over the window gives the frequency drift too (clocks
///   differ by up to ±200 ppm), so the mapping stays right between exchanges.
/// - Pacing (``PingPacer``): a burst on join, then the steady pace, backing off once the estimate has
///   converged and back to the steady pace when an exchange contradicts it.
public struct ClockSync: Sendable {
    public struct Sample: Sendable, Equatable {
        public var t0, t1, t2, t3: Double
        public init(t0: Double, t1: Double, t2: Double, t3: Double) { self.t0 = t0; self.t1 = t1; self.t2 = t2; self.t3 = t3 }
        public var offset: Double { ((t1 - t0) + (t2 - t3)) / 2 }
        public var delay: Double { (t3 - t0) - (t2 - t1) }
        /// Local time the sample describes (the middle of the exchange).
        public var local: Double { (t0 + t3) / 2 }
    }

    /// party = local + offset + drift × (local − reference)
    public struct Estimate: Sendable, Equatable {
        public var offset: Double
        public var drift: Double
        public var reference: Double
        /// Bound on the offset's error: half the fastest round trip (up and down minima together).
        public var uncertainty: Double
        /// Fastest round trip in the window: the lowest one-way times of the two directions added.
        public var minDelay: Double

        public func party(fromLocal local: Double) -> Double { local + offset + drift * (local - reference) }
        public func local(fromParty party: Double) -> Double {
            // Solve party = l + offset + drift (l − ref) for l.
            (party - offset + drift * reference) / (1 + drift)
        }
    }

    /// Exchanges sent back to back on join: enough low-delay samples for a first estimate.
    public static let burstCount = 16
    public static let burstInterval = 0.015
    /// Steady pace afterwards. Offsets are only as good as the lowest-delay exchanges, and with
    /// jitter few exchanges are low-delay: four a second (≈100 bytes each) give enough of them.
    public static let steadyInterval = 0.1
    /// After the burst, at most this many pings go unanswered: a slow link or a loaded server
    /// (round trips of seconds) gets about two pings a round trip instead of ten a second piling
    /// onto its backlog, which kept round trips long and every member of a loaded server at the
    /// steady pace (a 5,000-member load run collapsed that way). Two, so that one lost answer
    /// does not stop the pings for ``pingAnswerTimeout``.
    public static let maxPingsInFlight = 2
    /// A ping unanswered for this long is taken as lost: an answer that late bounds the offset only
    /// to ±5 s, which the estimate already has far better.
    public static let pingAnswerTimeout = 10.0
    /// Samples older than this are forgotten: long enough to see drift, short enough to follow it.
    public static let windowSeconds = 60.0
    public static let maxSamples = 512
    /// The offset comes from the exchanges of the last `offsetWindow` seconds once the drift is
    /// known. Before, unknown drift (200 ppm biases a sample by 0.2 ms per second of age) is traded
    /// against jitter (more exchanges find lower one-way times): a quiet link uses 2 s, a link with
    /// 20 ms of jitter 10 s.
    public static let offsetWindow = 20.0
    public static let offsetWindowNoDrift = 2.0...10.0
    /// The drift is a line through the lowest-delay exchange of each `driftBucket`, trusted once
    /// its standard error is below `driftStandardError` (seconds on a quiet link; longer with jitter).
    public static let driftBucket = 1.0
    public static let driftStandardError = 15e-6
    /// Physical bound on crystal drift; anything beyond is a bad fit.
    public static let maxDrift = 500e-6

    public private(set) var samples = Deque<Sample>()
    public private(set) var estimate: Estimate?
    /// Whether the drift of ``estimate`` comes from a fitted line (else it is assumed, or zero).
    public private(set) var driftFitted = false
    public private(set) var pacer = PingPacer()

    public init() {}

    public var isBursting: Bool { samples.count < Self.burstCount }
    /// Seconds until the next exchange (``PingPacer``).
    public var nextInterval: Double { pacer.interval }

    /// Adds an exchange; impossible ones (negative delay, out of order) are ignored. Returns whether kept.
    @discardableResult
    public mutating func add(_ sample: Sample) -> Bool {
        guard sample.delay >= 0, sample.t3 >= sample.t0, sample.t2 >= sample.t1,
              [sample.t0, sample.t1, sample.t2, sample.t3].allSatisfy(\.isFinite) else { return false }
        samples.append(sample)
        while let first = samples.first,
              samples.count > Self.maxSamples || sample.local - first.local > Self.windowSeconds {
            samples.removeFirst()
        }
        let previous = estimate
        let all = Array(samples)
        let fittedDrift = Self.fitDrift(all)
        driftFitted = fittedDrift != nil
        estimate = Self.fit(all, previous: previous, fittedDrift: fittedDrift)
        pace(sample, previous: previous)
        return true
    }

    /// Tells the pacer what this exchange did to the estimate.
    private mutating func pace(_ sample: Sample, previous: Estimate?) {
        if isBursting { return }
        guard let previous, let estimate, pacer.state != .bursting else {
            pacer.burstEnded()
            return
        }
        // Both estimates read at the exchange's instant, so drift alone moves nothing.
        let predicted = previous.party(fromLocal: sample.local) - sample.local
        let step = estimate.party(fromLocal: sample.local) - sample.local - predicted
        // The exchange's offset is within delay/2 of the truth, the previous estimate within its uncertainty.
        let inconsistency = abs(sample.offset - predicted) - sample.delay / 2 - previous.uncertainty
        pacer.exchanged(.init(offsetStep: step, inconsistency: inconsistency, uncertainty: estimate.uncertainty,
                              driftKnown: driftFitted))
    }

    public func party(fromLocal local: Double) -> Double? { estimate?.party(fromLocal: local) }
    public func local(fromParty party: Double) -> Double? { estimate?.local(fromParty: party) }

    static func fit(_ all: [Sample], previous: Estimate?) -> Estimate? {
        fit(all, previous: previous, fittedDrift: fitDrift(all))
    }

    static func fit(_ all: [Sample], previous: Estimate?, fittedDrift fitted: Double?) -> Estimate? {
        guard let latest = all.last?.local else { return nil }
        let drift = fitted ?? previous?.drift ?? 0
        let driftKnown = fitted != nil || (previous.map { $0.drift != 0 } ?? false)
        let window = driftKnown ? offsetWindow : noDriftWindow(all, latest: latest)
        let recent = all.filter { latest - $0.local <= window }
        let reference = latest
        // Each direction on its own, carried to the reference instant along the drift line:
        // up = t1 − t0 = d↑ + θ, down = t3 − t2 = d↓ − θ. Their minima over the window are the
        // base latencies plus and minus θ; with a symmetric base (NTP's assumption), θ is half
        // their difference. The minimum of each direction needs only one lucky message that
        // way, where a low round trip needs both at once: with ±20 ms of jitter this is several
        // times closer than averaging the lowest-delay round trips.
        let up = recent.map { ($0.t1 - $0.t0) - drift * ($0.local - reference) }.min() ?? 0
        let down = recent.map { ($0.t3 - $0.t2) + drift * ($0.local - reference) }.min() ?? 0
        let offset = (up - down) / 2
        // The fastest round trip the two minima make: half of it bounds the asymmetry, so the error.
        let minDelay = up + down
        return Estimate(offset: offset, drift: drift, reference: reference, uncertainty: minDelay / 2, minDelay: minDelay)
    }

    /// Recent jitter (median − minimum round trip) sets the window used before the drift is known.
    static func noDriftWindow(_ all: [Sample], latest: Double) -> Double {
        let delays = all.filter { latest - $0.local <= offsetWindowNoDrift.upperBound }.map(\.delay).sorted()
        guard let low = delays.first else { return offsetWindowNoDrift.lowerBound }
        let jitter = delays[delays.count / 2] - low
        return min(max(offsetWindowNoDrift.lowerBound + jitter * 400, offsetWindowNoDrift.lowerBound), offsetWindowNoDrift.upperBound)
    }

    /// Least-squares slope of offset over time through the better half of per-bucket minima,
    /// when its standard error is small enough to trust.
    static func fitDrift(_ all: [Sample]) -> Double? {
        guard let first = all.first?.local else { return nil }
        // Each bucket's lowest-delay exchange (the first of equals). Exchanges arrive in time order,
        // so a bucket is almost always the last one; a list searched from its end finds it at once
        // without the hashing of a dictionary (this runs on every answered ping).
        var buckets: [(index: Int, sample: Sample)] = []
        buckets.reserveCapacity(Int(windowSeconds / driftBucket) + 2)
        for s in all {
            let b = Int((s.local - first) / driftBucket)
            if let at = buckets.lastIndex(where: { $0.index == b }) {
                if s.delay < buckets[at].sample.delay { buckets[at].sample = s }
            } else {
                buckets.append((b, s))
            }
        }
        let minima = buckets.map(\.sample).sorted { $0.delay < $1.delay }
        let kept = Array(minima.prefix(max(2, minima.count / 2)))
        guard kept.count >= 5 else { return nil }
        let n = Double(kept.count)
        let mx = kept.map(\.local).reduce(0, +) / n
        let my = kept.map(\.offset).reduce(0, +) / n
        let sxx = kept.reduce(0) { $0 + ($1.local - mx) * ($1.local - mx) }
        let sxy = kept.reduce(0) { $0 + ($1.local - mx) * ($1.offset - my) }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        let residual = kept.reduce(0) { $0 + pow($1.offset - (my + slope * ($1.local - mx)), 2) }
        let standardError = (residual / max(n - 2, 1) / sxx).squareRoot()
        guard standardError < driftStandardError else { return nil }
        return min(max(slope, -maxDrift), maxDrift)
    }
}
