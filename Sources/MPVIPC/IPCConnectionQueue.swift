import Synchronization

/// One client's ``IPCConnectionInbox`` under a lock, shared by the event loop and the forwarder
/// (which add work) and the client's serving task (which takes it out).
final class IPCConnectionQueue: Sendable {
    private let inbox = Mutex(IPCConnectionInbox())
    /// Tells the serving task that the inbox has work; one waiting wake-up is enough, since the
    /// task drains everything each time it wakes.
    private let wakeUps: AsyncStream<Void>.Continuation
    private let stream: AsyncStream<Void>

    init() {
        (stream, wakeUps) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds a request line; `false` when input has finished and the line is dropped.
    func add(line: String) -> Bool {
        guard inbox.withLock({ $0.lineReceived(line) }) else { return false }
        wakeUps.yield()
        return true
    }

    /// Adds a property change, coalesced with a waiting change of the same property.
    func add(change: IPCPropertyChange) -> IPCConnectionInbox.ChangeOutcome {
        let outcome = inbox.withLock { $0.changeReceived(change) }
        if outcome != .ignored { wakeUps.yield() }
        return outcome
    }

    /// No more input: what is waiting is still handed out, then ``run(_:)`` returns.
    func finish() {
        inbox.withLock { $0.finish() }
        wakeUps.finish()
    }

    /// No more input, and what is waiting is dropped.
    func cancel() {
        inbox.withLock { $0.cancel() }
        wakeUps.finish()
    }

    /// Work waiting, changes among it, and changes merged so far (for tests and logs).
    var snapshot: (count: Int, pendingChanges: Int, coalesced: Int) {
        inbox.withLock { ($0.count, $0.pendingChanges, $0.coalescedCount) }
    }

    /// Hands every piece of work to `body`, one at a time in order, until the queue is finished
    /// and empty or the calling task is cancelled. Only one task may run this.
    func run(_ body: (IPCConnectionInput) async -> Void) async {
        for await _ in stream {
            while let input = inbox.withLock({ $0.next() }) {
                await body(input)
            }
        }
        // Finished: take what came after the last wake-up (nothing once cancelled).
        while !Task.isCancelled, let input = inbox.withLock({ $0.next() }) {
            await body(input)
        }
    }
}
