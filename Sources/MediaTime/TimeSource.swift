import Foundation
import Synchronization

/// Where host time comes from. Injectable so that clock and sync logic run on a manual clock in tests.
public protocol TimeSource: Sendable {
    /// Seconds on a monotonic host timeline.
    func now() -> Double
}

/// `CLOCK_MONOTONIC`, the host timeline of a real player.
public struct MonotonicTimeSource: TimeSource {
    public init() {}
    public func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A host clock that moves only when told: deterministic tests of clocks and scheduling.
public final class ManualTimeSource: TimeSource {
    private let time: Mutex<Double>
    public init(_ start: Double = 0) { time = Mutex(start) }
    public func now() -> Double { time.withLock { $0 } }
    public func advance(by seconds: Double) { time.withLock { $0 += seconds } }
    public func set(_ seconds: Double) { time.withLock { $0 = seconds } }
}
