/// The work waiting for one client's serving task, in arrival order: request lines and property
/// changes. A small state machine; ``IPCConnection`` keeps it under a lock.
///
/// Request lines are bounded elsewhere (``IPCReadThrottle`` stops reading the client). Property
/// changes come from the application at its own pace, so a client that stops reading could
/// otherwise make its queue grow without bound. They are coalesced instead: at most one change per
/// property waits, holding the latest value, at the place of the first change not yet handled.
/// Observers only ever report the latest value (mpv coalesces property changes the same way), so
/// nothing a client would see is lost, only values that were already stale.
struct IPCConnectionInbox {
    /// The most property changes that can wait: one per property.
    static let maxPendingChanges = IPCProperty.allCases.count

    /// What ``changeReceived(_:)`` did with a change.
    enum ChangeOutcome: Equatable {
        /// Queued behind the work already waiting.
        case queued
        /// Merged into the change of the same property already waiting. `firstTime` is true for
        /// the first merge on this client, so the caller can log that the client is falling behind.
        case coalesced(firstTime: Bool)
        /// Dropped: the client's input has finished.
        case ignored
    }

    private enum Entry {
        case line(String)
        case change(IPCProperty)
    }

    private var entries: [Entry] = []
    /// The latest value of each property with an entry in `entries`.
    private var latest: [IPCProperty: IPCValue?] = [:]
    private var finished = false
    /// How many changes were merged into one already waiting.
    private(set) var coalescedCount = 0

    /// Property changes waiting, never more than ``maxPendingChanges``.
    var pendingChanges: Int { latest.count }

    /// Lines and changes waiting.
    var count: Int { entries.count }

    /// Whether ``finish()`` or ``cancel()`` was called.
    var isFinished: Bool { finished }

    /// A request line arrived; returns `false` when it is dropped because input has finished.
    mutating func lineReceived(_ line: String) -> Bool {
        guard !finished else { return false }
        entries.append(.line(line))
        return true
    }

    /// The application reported a property change.
    mutating func changeReceived(_ change: IPCPropertyChange) -> ChangeOutcome {
        guard !finished else { return .ignored }
        if latest[change.property] != nil {
            latest[change.property] = .some(change.value)
            coalescedCount += 1
            return .coalesced(firstTime: coalescedCount == 1)
        }
        latest[change.property] = .some(change.value)
        entries.append(.change(change.property))
        return .queued
    }

    /// No more input will be accepted; what is waiting is still handed out by ``next()``.
    mutating func finish() {
        finished = true
    }

    /// No more input, and what is waiting is dropped.
    mutating func cancel() {
        finished = true
        entries = []
        latest = [:]
    }

    /// The oldest work waiting, or `nil` when there is none.
    mutating func next() -> IPCConnectionInput? {
        guard !entries.isEmpty else { return nil }
        switch entries.removeFirst() {
        case .line(let line):
            return .line(line)
        case .change(let property):
            let value = latest.removeValue(forKey: property) ?? nil
            return .change(IPCPropertyChange(property, value))
        }
    }
}
