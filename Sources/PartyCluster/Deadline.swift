import Synchronization

/// Runs `operation` and returns its result, or throws `timeoutError()` once `timeout` has passed,
/// whichever comes first; cancelling the caller throws `CancellationError` at once.
///
/// The operation runs in its own task, so a query stuck on a connection that went silent (which no
/// cancellation reaches) cannot hold its caller: the caller goes on, the operation is cancelled and
/// finishes whenever its connection fails.
func withDeadline<T: Sendable>(
    _ timeout: Duration,
    timeoutError: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.start(continuation)
            let work = Task {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                race.finish(result)
            }
            let timer = Task {
                // A cancelled sleep is the operation having finished first: nothing to do.
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                race.finish(.failure(timeoutError()))
            }
            race.own(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The one-shot meeting point of an operation, its timer and its caller's cancellation: the first
/// to finish resumes the caller and cancels the other two's tasks.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var done = false
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early: Result<T, any Error>? = state.withLock { s in
            if let e = s.early { return e }
            s.continuation = continuation
            return nil
        }
        // Cancelled before it started.
        if let early { continuation.resume(with: early) }
    }

    func own(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let finished = state.withLock { s in
            s.work = work
            s.timer = timer
            return s.done
        }
        if finished { work.cancel(); timer.cancel() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer): (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Task<Void, Never>?) = state.withLock { s in
            guard !s.done else { return (nil, nil, nil) }
            s.done = true
            if s.continuation == nil { s.early = result }
            defer { s.continuation = nil }
            return (s.continuation, s.work, s.timer)
        }
        work?.cancel()
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
