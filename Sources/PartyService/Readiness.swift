import Synchronization

/// A value parts of `tandem serve` wait for: a port bound, a part started. Set once; any number of
/// tasks wait for it, and a waiting task that is cancelled stops waiting (throws `CancellationError`).
final class Readiness<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var nextWaiter = 0
        /// Waiters cancelled before they were registered.
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    init() {}

    /// Sets the value (the first time only) and wakes every waiter.
    func set(_ value: Value) {
        let waiters = state.withLock { s -> [CheckedContinuation<Value, any Error>] in
            guard s.value == nil else { return [] }
            s.value = value
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value if it is set, without waiting.
    var current: Value? { state.withLock { $0.value } }

    /// The value, once it is set.
    func wait() async throws -> Value {
        let id = state.withLock { s in
            defer { s.nextWaiter += 1 }
            return s.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Value, any Error>) in
                let now = state.withLock { s -> Result<Value, any Error>? in
                    let cancelled = s.cancelled.remove(id) != nil
                    if let value = s.value { return .success(value) }
                    if cancelled { return .failure(CancellationError()) }
                    s.waiters[id] = waiter
                    return nil
                }
                if let now { waiter.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<Value, any Error>? in
                if let waiter = s.waiters.removeValue(forKey: id) { return waiter }
                if s.value == nil { s.cancelled.insert(id) }
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}

extension Readiness where Value == Void {
    func set() { set(()) }
}
