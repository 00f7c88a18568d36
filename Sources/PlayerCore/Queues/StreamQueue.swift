import DequeModule
import Foundation

/// One entry of a ``StreamQueue``: a payload, or the end of the stream for that generation.
public enum QueueEntry<Payload: Sendable>: Sendable {
    case payload(Payload)
    case end
}

/// An entry stamped with the generation (serial) it belongs to.
public struct Queued<Payload: Sendable>: Sendable {
    public var serial: Int
    public var entry: QueueEntry<Payload>
    /// Bytes and media seconds it holds, for the fill statistics.
    public var bytes: Int
    public var duration: Double
    /// Which put this is, counted over the queue's whole life (flushes do not reset it): names the
    /// entry for ``StreamQueue/pop(expecting:)``.
    public let sequence: Int
}

/// A FIFO between two pipeline threads, in the manner of ffplay's packet and frame queues.
///
/// - Generations: ``flush(serial:)`` drops everything and starts a new serial. A `put` stamped with
///   another serial is dropped on arrival, so a producer still finishing the old generation never
///   blocks and never leaks a stale item downstream.
/// - Bounded: with a `capacity`, `put` blocks while full (back-pressure). The packet queues pass
///   no capacity: the demuxer throttles on ``fill`` instead, as ffplay does by bytes and duration.
/// - ``abort()`` wakes every waiter for good: teardown never waits on a full or empty queue.
///
/// The lock-protected state is the only shared state, hence `@unchecked Sendable`.
public final class StreamQueue<Payload: Sendable>: @unchecked Sendable {
    public struct Fill: Sendable {
        public var count: Int
        public var bytes: Int
        public var duration: Double
    }

    private let condition = NSCondition()
    private var items = Deque<Queued<Payload>>()
    private var bytes = 0
    private var duration = 0.0
    private var aborted = false
    private var currentSerial: Int
    /// Generations that carry on the previous one's entries (``carryOver(serial:)``).
    private var carriedOver: Set<Int> = []
    /// The ``Queued/sequence`` the next put gets.
    private var nextSequence = 0
    public let capacity: Int?

    public init(capacity: Int? = nil, serial: Int = 0) {
        self.capacity = capacity
        currentSerial = serial
    }

    public var serial: Int { condition.withLock { currentSerial } }
    public var fill: Fill { condition.withLock { Fill(count: items.count, bytes: bytes, duration: duration) } }
    public var isAborted: Bool { condition.withLock { aborted } }

    /// Appends `entry`, waiting while the queue is full. Returns false once aborted.
    /// An entry of another generation than the queue's is dropped (returns true: nothing to retry).
    @discardableResult
    public func put(_ entry: QueueEntry<Payload>, serial: Int, bytes: Int = 0, duration: Double = 0) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while let capacity, items.count >= capacity, !aborted, serial == currentSerial {
            condition.wait()
        }
        if aborted { return false }
        if serial != currentSerial { return true }
        items.append(Queued(serial: serial, entry: entry, bytes: bytes, duration: duration, sequence: nextSequence))
        nextSequence += 1
        self.bytes += bytes
        self.duration += duration
        condition.broadcast()
        return true
    }

    /// Takes the head, waiting up to `timeout` seconds (nil: until there is one). Nil on abort or timeout.
    public func get(timeout: Double? = nil) -> Queued<Payload>? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        while items.isEmpty, !aborted {
            if let deadline {
                if !condition.wait(until: deadline) { break }
            } else {
                condition.wait()
            }
        }
        if aborted { return nil }
        return popLocked()
    }

    /// The head without taking it, waiting up to `timeout` seconds for one.
    public func peek(timeout: Double = 0) -> Queued<Payload>? {
        condition.lock()
        defer { condition.unlock() }
        if items.isEmpty, !aborted, timeout > 0 {
            _ = condition.wait(until: Date(timeIntervalSinceNow: timeout))
        }
        return aborted ? nil : items.first
    }

    /// The entry after the head, if any (the presenter looks at it to decide whether the head is late).
    public func peekSecond() -> Queued<Payload>? {
        condition.withLock { items.count > 1 ? items[1] : nil }
    }

    /// Removes the head if it is still `peeked`, the entry the caller looked at (``peek(timeout:)``,
    /// ``peekSecond()``); returns whether it did. Between the look and the pop, a seek may have
    /// flushed the queue and the new generation's first entry arrived: that one stays.
    @discardableResult
    public func pop(expecting peeked: Queued<Payload>) -> Bool {
        condition.withLock {
            guard items.first?.sequence == peeked.sequence else { return false }
            _ = popLocked()
            return true
        }
    }

    /// Starts generation `serial` keeping the entries queued, now of it: for an input that cannot
    /// seek, whose next packets follow those queued whatever the seek asked for. A consumer asks
    /// ``continues(_:)`` to keep its decoder's state across the change.
    public func carryOver(serial: Int) {
        condition.withLock {
            for index in items.indices { items[index].serial = serial }
            currentSerial = serial
            carriedOver.insert(serial)
            condition.broadcast()
        }
    }

    /// Whether generation `serial` carries on the one before it (``carryOver(serial:)``).
    public func continues(_ serial: Int) -> Bool { condition.withLock { carriedOver.contains(serial) } }

    /// Drops every entry and starts generation `serial`.
    public func flush(serial: Int) {
        condition.withLock {
            items.removeAll()
            bytes = 0
            duration = 0
            currentSerial = serial
            condition.broadcast()
        }
    }

    /// Wakes every waiter now and forever.
    public func abort() {
        condition.withLock {
            aborted = true
            items.removeAll()
            condition.broadcast()
        }
    }

    /// Wakes waiters without changing anything (a control change they should look at).
    public func nudge() { condition.withLock { condition.broadcast() } }

    private func popLocked() -> Queued<Payload>? {
        guard let head = items.popFirst() else { return nil }
        bytes -= head.bytes
        duration -= head.duration
        condition.broadcast()
        return head
    }
}
