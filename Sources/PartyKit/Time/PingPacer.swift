/// How often a member sends time pings, as a state machine fed each exchange the clock sync keeps:
/// a burst on join, the steady pace while the estimate is still moving, then fewer pings in two stages
/// once it has converged, and the steady pace again at the first exchange that contradicts it. An
/// exchange that merely moves a backed-off estimate within its bounds goes back one stage only.
///
/// The two stages: once the offset has converged (its uncertainty under a bound, calm exchanges in a
/// row) the pace drops to ``driftFeedInterval``, which still gives the drift line (fitted through
/// per-second minima) samples enough to be fitted; only once that line is fitted does it back off to
/// ``maxInterval``. Waiting for the drift before backing off at all kept members at the steady pace for
/// a minute or more on a jittery link; backing off fully without it starves the drift fit.
///
/// A server carries every member's pings: at the steady pace they are most of its messages, and once a
/// member's estimate has settled they add nothing it does not already know.
public struct PingPacer: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Until ``ClockSync/burstCount`` exchanges are in: back to back.
        case bursting
        /// The estimate is still moving (or has just been disturbed): ``ClockSync/steadyInterval``.
        case tracking(calmExchanges: Int)
        /// The offset has converged, the drift is not fitted yet: ``driftFeedInterval``, which keeps the
        /// drift line fed.
        case feedingDrift
        /// Converged: the interval grows by ``backOffFactor`` with each calm exchange up to ``maxInterval``.
        case backingOff(interval: Double)
    }

    /// What one exchange said about the estimate, for ``exchanged(_:)``.
    public struct Exchange: Sendable, Equatable {
        /// How far the estimate moved with this exchange: the party time the new and the previous
        /// estimate give for the exchange's instant, apart (seconds; drift alone moves nothing).
        public var offsetStep: Double
        /// How far this exchange's own offset lies outside what the previous estimate and the exchange's
        /// own round trip allow together (seconds; 0 or less: consistent). Positive: the clock or the
        /// path changed under the estimate.
        public var inconsistency: Double
        /// The estimate's error bound after this exchange (seconds).
        public var uncertainty: Double
        /// Whether the estimate's drift comes from a fitted line (not yet assumed).
        public var driftKnown: Bool
        public init(offsetStep: Double, inconsistency: Double, uncertainty: Double, driftKnown: Bool) {
            self.offsetStep = offsetStep
            self.inconsistency = inconsistency
            self.uncertainty = uncertainty
            self.driftKnown = driftKnown
        }
    }

    /// An exchange that moves the offset by at most this is calm: a tenth of a millisecond is far below
    /// what a player shows (a frame is 40 ms; the sync controller acts on errors of milliseconds).
    public static let calmOffsetStep = 0.1e-3
    /// Calm exchanges in a row after which the estimate counts as converged: at the steady pace, one
    /// second of an estimate that no longer moves.
    public static let calmExchangesToConverge = 10
    /// The convergence bound on the estimate's uncertainty (half the fastest round trip): above it the
    /// link is slow or jittery enough that each extra exchange may still find a faster round trip and
    /// tighten the estimate, so the pace is kept. 25 ms covers links up to a 50 ms round trip.
    public static let convergedUncertainty = 25e-3
    /// The pace once the offset has converged and the drift is still being fitted: two exchanges per
    /// drift bucket (``ClockSync/driftBucket``, 1 s), so each second's minimum is the lower of two
    /// round trips (on a jittery link one exchange a second would leave many seconds with only a slow
    /// one, and the fit's standard error would take far longer to fall under its bound), at a fifth of
    /// the steady pace's pings.
    public static let driftFeedInterval = 0.5
    /// Each calm exchange after convergence multiplies the interval by this.
    public static let backOffFactor = 1.5
    /// The slowest pace: one exchange per drift bucket (``ClockSync/driftBucket``, 1 s), so the drift
    /// line, fitted through per-second minima, still has a sample in every second.
    public static let maxInterval = ClockSync.driftBucket
    /// An exchange whose offset lies this far beyond both error bounds is a disturbance (a clock step, a
    /// new path), not jitter: jitter only ever makes an exchange's round trip longer, which its own
    /// bound already allows for.
    public static let disturbanceMargin = 1e-3

    public private(set) var state: State = .bursting

    public init() {}

    /// Seconds until the next ping.
    public var interval: Double {
        switch state {
        case .bursting: ClockSync.burstInterval
        case .tracking: ClockSync.steadyInterval
        case .feedingDrift: Self.driftFeedInterval
        case .backingOff(let interval): interval
        }
    }

    /// The burst is over (``ClockSync/burstCount`` exchanges kept).
    public mutating func burstEnded() {
        if state == .bursting { state = .tracking(calmExchanges: 0) }
    }

    /// One more exchange was kept after the burst.
    public mutating func exchanged(_ exchange: Exchange) {
        if state == .bursting { return }
        let disturbed = exchange.inconsistency > Self.disturbanceMargin || exchange.uncertainty > Self.convergedUncertainty
        // The offset no longer moves: the first stage's condition. The second also needs the drift fitted.
        let settled = !disturbed && abs(exchange.offsetStep) <= Self.calmOffsetStep
        switch state {
        case .bursting:
            break
        case .tracking(let count):
            let calmRun = settled ? count + 1 : 0
            if calmRun < Self.calmExchangesToConverge {
                state = .tracking(calmExchanges: calmRun)
            } else {
                state = exchange.driftKnown ? .backingOff(interval: Self.firstBackOff(from: ClockSync.steadyInterval)) : .feedingDrift
            }
        case .feedingDrift:
            // Anything but a settled exchange (a disturbance, or the offset moving again): the steady
            // pace until it has settled anew.
            if !settled {
                state = .tracking(calmExchanges: 0)
            } else if exchange.driftKnown {
                state = .backingOff(interval: Self.firstBackOff(from: Self.driftFeedInterval))
            }
        case .backingOff(let interval):
            if disturbed {
                state = .tracking(calmExchanges: 0)
            } else if !settled {
                // The estimate moved, but within what its bounds allow: the window's fastest exchange
                // aged out, as happens all the time on a jittery link or a loaded server. One stage back
                // (the drift-feeding pace) finds new fast exchanges; the steady pace would add five times
                // the pings to gain about a tenth of a millisecond of clock error (simulated with 3 ms of
                // jitter in `PingPacerTests`), and on a loaded server those pings are the load that
                // makes its round trips jitter.
                state = .feedingDrift
            } else if !exchange.driftKnown {
                // The drift fit lost its footing (its standard error grew): feed it again.
                state = .feedingDrift
            } else {
                state = .backingOff(interval: min(interval * Self.backOffFactor, Self.maxInterval))
            }
        }
    }

    /// The first backed-off interval after `interval`.
    private static func firstBackOff(from interval: Double) -> Double {
        min(interval * backOffFactor, maxInterval)
    }
}
