import TandemApp
import PartyKit

/// One direction of a delayed link as a state machine: chunks read from one side wait for their
/// departure (``LinkDelaySchedule``) and are then written to the other side, in order. At most
/// ``highWater`` bytes are held (waiting or being written) before reading stops; reading resumes
/// at ``lowWater``. When the reading side closes, what is held is still delivered, then the
/// writing side is closed. No I/O here: each event returns the actions to perform.
package struct LinkDirection<Chunk> {
    /// What the owner must do after an event, in order.
    package enum Action {
        /// Wake the machine with ``timerFired(at:)`` at this instant (replacing any earlier wake-up).
        case armTimer(at: Double)
        /// Write these chunks to the other side, in order, and report each with ``sent(bytes:)``.
        case send([Chunk])
        /// Stop reading from this side: the buffer is full.
        case stopReading
        /// Read from this side again.
        case startReading
        /// Close the other side: this side closed and everything it sent has been delivered.
        case closePeer
    }

    /// Bytes held before reading stops: far above what a party's WebSocket has in flight, small
    /// enough that a stalled reader cannot make the proxy grow without bound.
    package static var highWater: Int { 1 << 20 }
    /// Bytes held at which reading resumes: half the high water, so reading does not flap.
    package static var lowWater: Int { highWater / 2 }

    private var schedule: LinkDelaySchedule
    private var rng: SplitMix64
    /// Chunks waiting for their departure, in order (departures never decrease).
    private var waiting: [(departure: Double, chunk: Chunk, bytes: Int)] = []
    /// Bytes waiting or written but not yet reported sent.
    package private(set) var heldBytes = 0
    private var reading = true
    private var inputIsClosed = false
    private var peerClosed = false

    /// A direction adding `latency ± jitter` seconds per chunk, with delays drawn from `seed`.
    package init(latency: Double, jitter: Double, seed: UInt64) {
        schedule = LinkDelaySchedule(latency: latency, jitter: jitter)
        rng = SplitMix64(seed: seed)
    }

    /// A chunk of `bytes` bytes was read at `now`.
    package mutating func received(_ chunk: Chunk, bytes: Int, at now: Double) -> [Action] {
        let departure = schedule.departure(arrivedAt: now, using: &rng)
        waiting.append((departure, chunk, bytes))
        heldBytes += bytes
        var actions: [Action] = []
        if waiting.count == 1 { actions.append(.armTimer(at: departure)) }
        if reading, heldBytes >= Self.highWater {
            reading = false
            actions.append(.stopReading)
        }
        return actions
    }

    /// The wake-up armed earlier fired at `now`: the chunks due leave.
    package mutating func timerFired(at now: Double) -> [Action] {
        let dueCount = waiting.prefix { $0.departure <= now }.count
        let due = waiting.prefix(dueCount).map(\.chunk)
        waiting.removeFirst(dueCount)
        var actions: [Action] = due.isEmpty ? [] : [.send(due)]
        if let head = waiting.first { actions.append(.armTimer(at: head.departure)) }
        return actions
    }

    /// A write of `bytes` bytes to the other side completed (or failed: the bytes are gone either way).
    package mutating func sent(bytes: Int) -> [Action] {
        heldBytes -= bytes
        if inputIsClosed { return closeIfDrained() }
        if !reading, heldBytes <= Self.lowWater {
            reading = true
            return [.startReading]
        }
        return []
    }

    /// This side closed: deliver what is held, then close the other side.
    package mutating func inputClosed() -> [Action] {
        inputIsClosed = true
        return closeIfDrained()
    }

    private mutating func closeIfDrained() -> [Action] {
        guard heldBytes == 0, !peerClosed else { return [] }
        peerClosed = true
        return [.closePeer]
    }
}

extension LinkDirection.Action: Equatable where Chunk: Equatable {}
