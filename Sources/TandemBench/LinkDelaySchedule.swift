import TandemApp
/// When each chunk of one direction of a delayed link (`tandem bench link`) leaves: a delay drawn
/// uniformly in `latency ± jitter` after it arrived, but never before the chunk ahead of it — a
/// stream over a jittery path arrives in order, so a chunk that drew a short delay waits for the
/// one before it. Times in seconds on any monotonic clock.
///
/// With arrivals in order, every chunk leaves within `latency ± jitter` of its arrival: the chunk
/// ahead left by its own arrival + latency + jitter, which is no later than this one's.
package struct LinkDelaySchedule: Sendable {
    /// The mean one-way delay added to every chunk, in seconds.
    package let latency: Double
    /// The largest departure from `latency` either way, in seconds (at most `latency`).
    package let jitter: Double
    /// When the previous chunk left (−∞ before the first).
    package private(set) var lastDeparture = -Double.infinity

    /// A schedule for `latency ± jitter` seconds; `jitter` is clamped to 0…`latency` so that no delay is negative.
    package init(latency: Double, jitter: Double) {
        self.latency = max(latency, 0)
        self.jitter = min(max(jitter, 0), self.latency)
    }

    /// The delay for `draw` in 0…1 (clamped): 0 gives `latency − jitter`, 1 gives `latency + jitter`.
    package func delay(draw: Double) -> Double {
        latency - jitter + 2 * jitter * min(max(draw, 0), 1)
    }

    /// The departure of a chunk that arrived at `arrival`, with its delay from `draw` (0…1), held
    /// back to the previous chunk's departure if that is later; remembered for the next chunk.
    package mutating func departure(arrivedAt arrival: Double, draw: Double) -> Double {
        lastDeparture = max(arrival + delay(draw: draw), lastDeparture)
        return lastDeparture
    }

    /// The same with a uniform draw from `rng`.
    package mutating func departure<R: RandomNumberGenerator>(arrivedAt arrival: Double, using rng: inout R) -> Double {
        departure(arrivedAt: arrival, draw: Double.random(in: 0...1, using: &rng))
    }
}
