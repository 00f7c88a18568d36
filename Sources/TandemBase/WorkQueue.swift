/// Work for one task to carry out in the order it was submitted, with work that newer work makes
/// pointless dropped while it is still queued: the queue of a player's commands, where a seek
/// supersedes the seeks not yet started. Submitting never waits, so the submitting side (a
/// connection's inbound path) never waits on the player.
///
/// One consumer task takes the items with ``next()``; an item counts as under way from then until
/// that task asks for the next one. What supersedes what is the owner's rule, given at `init`.
public final class WorkQueue<Work: Sendable>: Sendable {
    private struct State {
        /// Queued items from `head` on (the ones before it are taken, kept until compacted).
        var items: [Work] = []
        var head = 0
        /// The item the consumer took last, until it asks for the next one.
        var underWay: Work?
        /// No more submissions; the consumer gets what is still queued, then nil.
        var finished = false

        var hasQueued: Bool { head < items.count }
        var queued: ArraySlice<Work> { items[head...] }

        mutating func compact() {
            items.removeFirst(head)
            head = 0
        }
    }

    private let state = Awaitable(State())
    private let supersedes: @Sendable (_ new: Work, _ queued: Work) -> Bool

    /// `supersedes(new, queued)`: whether submitting `new` makes the still queued `queued` pointless
    /// (it is dropped). By default nothing supersedes anything: every item is carried out.
    public init(supersedes: @escaping @Sendable (_ new: Work, _ queued: Work) -> Bool = { _, _ in false }) {
        self.supersedes = supersedes
    }

    /// Queues `work` after what is queued, first dropping the queued items it supersedes (never the
    /// one under way). Returns the dropped items, or nil, queuing nothing, once ``finish()`` or
    /// ``close()`` was called.
    @discardableResult
    public func submit(_ work: Work) -> [Work]? {
        let supersedes = supersedes
        return state.withLock { state -> [Work]? in
            guard !state.finished else { return nil }
            var dropped: [Work] = []
            if state.queued.contains(where: { supersedes(work, $0) }) {
                state.compact()
                state.items.removeAll { queued in
                    guard supersedes(work, queued) else { return false }
                    dropped.append(queued)
                    return true
                }
            }
            state.items.append(work)
            return dropped
        }
    }

    /// For the one consumer task: ends the item under way and returns the next, waiting for one.
    /// Nil once the queue is finished and empty, or when the consumer task is cancelled.
    public func next() async -> Work? {
        state.withLock { $0.underWay = nil }
        guard (try? await state.wait(until: { $0.hasQueued || $0.finished })) != nil else { return nil }
        return state.withLock { state -> Work? in
            guard state.hasQueued else { return nil }
            let work = state.items[state.head]
            state.head += 1
            if state.head == state.items.count {
                state.items.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= 64, state.head * 2 >= state.items.count {
                state.compact()
            }
            state.underWay = work
            return work
        }
    }

    /// No more work is taken; the consumer still gets what is queued, then nil.
    public func finish() {
        state.withLock { $0.finished = true }
    }

    /// No more work is taken, and what is queued is dropped (returned): the consumer gets nil once
    /// it is done with the item under way.
    @discardableResult
    public func close() -> [Work] {
        state.withLock { state -> [Work] in
            state.finished = true
            defer { state.items = []; state.head = 0 }
            return Array(state.queued)
        }
    }

    /// Whether ``finish()`` or ``close()`` was called: the queue takes no more work.
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Whether the queue takes work, and none is queued or under way: work submitted now would be
    /// the next carried out (a command may then be carried out at once by its submitter instead).
    public var isIdle: Bool {
        state.withLock { !$0.finished && !$0.hasQueued && $0.underWay == nil }
    }

    /// How many items are queued or under way, of those that `matching` accepts (all by default).
    public func count(where matching: (Work) -> Bool = { _ in true }) -> Int {
        state.withLock { state -> Int in
            state.queued.count(where: matching) + (state.underWay.map { matching($0) ? 1 : 0 } ?? 0)
        }
    }
}
