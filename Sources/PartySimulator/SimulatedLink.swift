import Synchronization
import PlayerCore
import MediaTime
import PartyKit

/// One direction of a simulated reliable stream (what a WebSocket over TCP looks like from above):
/// latency with jitter, and loss seen the way a reliable stream shows it — a retransmission delay
/// that holds back the lost message and everything behind it. Messages arrive in order.
public struct SimulatedLink: Sendable {
    public var latency: Double
    public var jitter: Double
    public var loss: Double
    /// TCP's minimum retransmission timeout (Linux: 200 ms), added per loss.
    public var retransmitTimeout: Double
    private var lastDelivery = -Double.infinity

    public init(latency: Double, jitter: Double, loss: Double, retransmitTimeout: Double = 0.2) {
        self.latency = latency
        self.jitter = jitter
        self.loss = loss
        self.retransmitTimeout = retransmitTimeout
    }

    /// True time at which a message sent at `t` arrives.
    public mutating func deliveryTime<R: RandomNumberGenerator>(sentAt t: Double, using rng: inout R) -> Double {
        var delay = latency + (jitter > 0 ? Double.random(in: -jitter...jitter, using: &rng) : 0)
        delay = max(delay, latency * 0.1)
        while loss > 0, Double.random(in: 0..<1, using: &rng) < loss {
            delay += retransmitTimeout + latency
        }
        lastDelivery = max(t + delay, lastDelivery)
        return lastDelivery
    }
}

/// A host's clock in the simulation: local = offset + (1 + drift) × true time.
public struct SimulatedClock: Sendable, Equatable {
    public var offset: Double
    public var drift: Double
    public init(offset: Double, drift: Double) { self.offset = offset; self.drift = drift }
    public func local(_ trueTime: Double) -> Double { offset + (1 + drift) * trueTime }
    public func trueTime(_ local: Double) -> Double { (local - offset) / (1 + drift) }
}

/// The simulation's true time, shared with the players' time sources.
public final class SimulatedWorldTime: Sendable {
    private let now = Mutex<Double>(0)
    public init() {}
    public var value: Double { now.withLock { $0 } }
    public func set(_ t: Double) { now.withLock { $0 = t } }
}

/// A player's time source on a simulated host clock.
public struct SimulatedTimeSource: TimeSource {
    public let world: SimulatedWorldTime
    public let clock: SimulatedClock
    public init(world: SimulatedWorldTime, clock: SimulatedClock) { self.world = world; self.clock = clock }
    public func now() -> Double { clock.local(world.value) }
}
