/// Decides how a participant's player follows the party timeline, from its measured error.
///
/// - Small errors: a speed correction proportional to the error, on top of the clock's measured
///   drift (feed-forward), clamped to ±0.5 % so it is never heard. Proportional control of a
///   first-order system cannot oscillate; the deadband keeps it from chasing measurement noise.
/// - Large errors: an accurate re-seek scheduled ahead, but only when the error has persisted
///   over several checks, and not again before a cool-down: a seek's own delay is never taken for
///   drift, so seeks cannot loop.
/// - Each participant follows the timeline itself, never another participant: the group is
///   never pulled toward its slowest member.
public struct SyncController: Sendable {
    public struct Tuning: Sendable {
        /// Errors below this are noise: only the drift is compensated.
        public var deadband = 0.0005
        /// Fraction of the error removed per second (1/s): 0.5 removes 10 ms in about 5 s at most 0.5 %.
        public var gain = 0.5
        public var maxCorrection = 0.005
        /// Beyond this, rate nudges would take too long (200 ms at 0.5 % is 40 s): re-seek.
        public var seekThreshold = 0.2
        /// Consecutive checks over the threshold before re-seeking.
        public var seekPersistence = 3
        /// No second re-seek within this time after one (seconds).
        public var seekCooldown = 3.0
        public init() {}
    }

    public enum Decision: Sendable, Equatable {
        case correct(Double)
        case reseek
    }

    public var tuning: Tuning
    private var overThreshold = 0
    private var lastSeek = -Double.infinity
    /// Largest |correction| used so far (for reports).
    public private(set) var maxCorrectionUsed = 0.0

    public init(tuning: Tuning = Tuning()) { self.tuning = tuning }

    /// `error`: player position − timeline position (media seconds; positive = ahead).
    /// `drift`: how much faster the party clock runs than the local one (party = local × (1 + drift)).
    public mutating func update(error: Double, drift: Double, rate: Double, now: Double) -> Decision {
        if abs(error) > tuning.seekThreshold {
            overThreshold += 1
            if overThreshold >= tuning.seekPersistence, now - lastSeek >= tuning.seekCooldown {
                overThreshold = 0
                lastSeek = now
                return .reseek
            }
        } else {
            overThreshold = 0
        }
        var correction = drift
        if abs(error) > tuning.deadband {
            correction -= tuning.gain * error / max(rate, 0.01)
        }
        correction = min(max(correction, -tuning.maxCorrection), tuning.maxCorrection)
        maxCorrectionUsed = max(maxCorrectionUsed, abs(correction))
        return .correct(correction)
    }

    /// A seek was made for another reason (a command): start the cool-down and forget the streak.
    public mutating func noteSeek(at now: Double) {
        lastSeek = now
        overThreshold = 0
    }
}
