/// A media clock as a small value: media position at host time t is
/// `anchorPosition + (t − anchorHost) × rate`, frozen at `anchorPosition` while paused.
///
/// An anchor may lie in the future: a clock anchored at (P, T) reads less than P before T, which is
/// how "be at P at host time T" is expressed — presentation waits until the clock reaches P.
public struct MediaClock: Sendable, Equatable {
    public var anchorPosition: Double
    public var anchorHost: Double
    public var rate: Double
    public var isPaused: Bool

    public init(position: Double = 0, host: Double = 0, rate: Double = 1, paused: Bool = true) {
        anchorPosition = position
        anchorHost = host
        self.rate = rate
        isPaused = paused
    }

    /// Media position at host time `host`.
    public func position(at host: Double) -> Double {
        isPaused ? anchorPosition : anchorPosition + (host - anchorHost) * rate
    }

    /// Host time at which the clock reaches `position` (nil while paused or stopped).
    public func hostTime(of position: Double) -> Double? {
        guard !isPaused, rate > 0 else { return nil }
        return anchorHost + (position - anchorPosition) / rate
    }

    /// Re-anchors at `host` keeping the current position, then applies `change`: the clock is
    /// continuous across pause, resume and rate changes.
    public mutating func reanchor(at host: Double, _ change: (inout MediaClock) -> Void = { _ in }) {
        anchorPosition = position(at: host)
        anchorHost = host
        change(&self)
    }

    public mutating func pause(at host: Double) { reanchor(at: host) { $0.isPaused = true } }
    public mutating func resume(at host: Double) { reanchor(at: host) { $0.isPaused = false } }
    public mutating func setRate(_ newRate: Double, at host: Double) { reanchor(at: host) { $0.rate = newRate } }

    /// Jumps to `position` at `host`, keeping rate and paused state.
    public mutating func set(position: Double, at host: Double) {
        anchorPosition = position
        anchorHost = host
    }
}
