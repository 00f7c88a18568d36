import Synchronization

/// A value behind a lock that tasks can wait on: ``wait(until:)`` returns once the value meets a
/// condition, at once if it already does. Every change goes through ``withLock(_:)``, which then
/// resumes the waiters whose condition has come true, so no change can forget to wake them.
///
/// The one waiter of Tandem. It serves as a latch (`Awaitable(false)`, opened by setting it true:
/// it stays open), as a value others wait for until it changes (`wait { $0 != old }`), as a one-shot
/// result (`Awaitable<Result<T, E>?>(nil)`, the first to set it wins), and as the lock of a larger
/// state that some request waits on (`wait { $0.upstreams[party] != nil }`).
///
/// A waiter is cancellation-aware: cancelling its task resumes it at once with `CancellationError`
/// and removes it, so a cancelled waiter holds nothing. Conditions run under the lock, on the
/// thread that changes the value: they must be quick and must not touch this `Awaitable`.
public final class Awaitable<Value: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let condition: @Sendable (Value) -> Bool
        /// Resumed with the value that met the condition, or nil when the waiter was cancelled.
        let continuation: CheckedContinuation<Value?, Never>
    }

    private struct State {
        var value: Value
        /// In the order they came: that is the order they are resumed in.
        var waiters: [Waiter] = []
        var nextID = 0

        /// Takes out the waiters whose condition the value meets now.
        mutating func takeMet() -> [CheckedContinuation<Value?, Never>] {
            guard !waiters.isEmpty else { return [] }
            var met: [CheckedContinuation<Value?, Never>] = []
            let value = value
            waiters.removeAll { waiter in
                guard waiter.condition(value) else { return false }
                met.append(waiter.continuation)
                return true
            }
            return met
        }
    }

    private let state: Mutex<State>

    public init(_ value: Value) {
        state = Mutex(State(value: value))
    }

    /// The value now.
    public var value: Value { state.withLock { $0.value } }

    /// Reads or changes the value under the lock, then resumes (after the lock is released) the
    /// waiters whose condition the value now meets, in the order they started waiting.
    @discardableResult
    public func withLock<R: Sendable, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        var met: [CheckedContinuation<Value?, Never>] = []
        var snapshot: Value?
        defer {
            if let snapshot { for continuation in met { continuation.resume(returning: snapshot) } }
        }
        return try state.withLock { (state: inout State) throws(E) -> R in
            defer {
                met = state.takeMet()
                if !met.isEmpty { snapshot = state.value }
            }
            return try body(&state.value)
        }
    }

    /// Waits until the value meets `condition` (at once if it does now) and returns the value that
    /// met it. Throws `CancellationError` if the task is cancelled before then; the waiter is gone.
    @discardableResult
    public func wait(until condition: @escaping @Sendable (Value) -> Bool) async throws(CancellationError) -> Value {
        let first = state.withLock { state -> (met: Value?, id: Int) in
            if condition(state.value) { return (state.value, 0) }
            defer { state.nextID += 1 }
            return (nil, state.nextID)
        }
        if let met = first.met { return met }
        let id = first.id
        let outcome: Value? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                // The value may have changed since the first look: it is looked at again with the
                // waiter's registration, under the same lock as every change.
                let now = state.withLock { state -> Value?? in
                    if condition(state.value) { return .some(state.value) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Value?, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            cancelled?.resume(returning: nil)
        }
        guard let outcome else { throw CancellationError() }
        return outcome
    }

    /// How many tasks are waiting now (for tests and diagnostics).
    public var waiting: Int { state.withLock { $0.waiters.count } }
}
