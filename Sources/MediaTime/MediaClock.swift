/// A media clock as a small value: media position at host time t is
/// `anchorPosition + (t − anchorHost) × rate`, frozen at `anchorPosition` while paused.
///
/// An anchor may lie in the future: a clock anchored at (P, T) holds P until T and runs from there,
/// which is how "be at P at host time T" is expressed — the picture at P is up and the next waits.
/// A clock may also carry a `next` clock that takes over at the next clock's anchor instant: that is
/// how a pause or a rate change lands on a shared instant exactly, whenever it was decided.
public struct MediaClock: Sendable, Equatable {
    public var anchorPosition: Double
    public var anchorHost: Double
    public var rate: Double
    public var isPaused: Bool
    /// Segments that take over at their own anchor instants, in order (boxed: a clock value holding
    /// clocks). Setting `next` adds one, dropping any pending segment at or after its instant.
    public var next: MediaClock? {
        get { pending.last }
        set {
            guard let segment = newValue else { pending = []; return }
            pending.removeAll { $0.anchorHost >= segment.anchorHost }
            pending.append(segment.withoutNext)
        }
    }
    private var pending: [MediaClock] = []

    public init(position: Double = 0, host: Double = 0, rate: Double = 1, paused: Bool = true) {
        anchorPosition = position
        anchorHost = host
        self.rate = rate
        isPaused = paused
    }

    private var withoutNext: MediaClock { var c = self; c.pending = []; return c }

    /// The segment in force at host time `t`.
    public func segment(at t: Double) -> MediaClock {
        pending.last { t >= $0.anchorHost } ?? withoutNext
    }

    /// Media position at host time `host`. A clock anchored ahead holds its position until then.
    public func position(at host: Double) -> Double {
        let c = segment(at: host)
        return c.isPaused ? c.anchorPosition : c.anchorPosition + max(0, host - c.anchorHost) * c.rate
    }

    public func isPaused(at host: Double) -> Bool { segment(at: host).isPaused }
    public func rate(at host: Double) -> Double { segment(at: host).rate }

    /// Host time at which the clock reaches `position` (nil while paused or stopped).
    public func hostTime(of position: Double) -> Double? {
        guard !isPaused, rate > 0 else { return nil }
        return anchorHost + (position - anchorPosition) / rate
    }

    /// Lets the pending segments whose instants have come take over.
    public mutating func settle(at host: Double) {
        guard let due = pending.lastIndex(where: { host >= $0.anchorHost }) else { return }
        let rest = Array(pending[(due + 1)...])
        self = pending[due]
        pending = rest
    }

    /// Re-anchors at `host` keeping the current position, then applies `change`: the clock is
    /// continuous across pause, resume and rate changes. A pending segment is kept.
    public mutating func reanchor(at host: Double, _ change: (inout MediaClock) -> Void = { _ in }) {
        settle(at: host)
        // A clock still holding for its instant keeps that instant (a rate change must not start it early).
        if isPaused || anchorHost <= host {
            anchorPosition = position(at: host)
            anchorHost = host
        }
        change(&self)
    }

    public mutating func pause(at host: Double) { reanchor(at: host) { $0.isPaused = true; $0.pending = [] } }
    public mutating func resume(at host: Double) { reanchor(at: host) { $0.isPaused = false } }
    public mutating func setRate(_ newRate: Double, at host: Double) { reanchor(at: host) { $0.rate = newRate } }

    /// Jumps to `position` at `host`, keeping rate, paused state and any pending segment.
    public mutating func set(position: Double, at host: Double) {
        anchorPosition = position
        anchorHost = host
    }
}
