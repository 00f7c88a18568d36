import TandemBase

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
    // The one-shot meeting point of the operation and its timer: the first to finish sets it.
    let outcome = Awaitable<Result<T, any Error>?>(nil)
    let work = Task {
        let result: Result<T, any Error>
        do { result = .success(try await operation()) } catch { result = .failure(error) }
        outcome.withLock { $0 = $0 ?? result }
    }
    let timer = Task {
        // A cancelled sleep is the operation having finished first: nothing to do.
        guard (try? await Task.sleep(for: timeout)) != nil else { return }
        let timedOut = Result<T, any Error>.failure(timeoutError())
        outcome.withLock { $0 = $0 ?? timedOut }
    }
    // Whoever finished first (or the caller's cancellation), the other two are stopped.
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await outcome.wait(until: { $0 != nil })!.get()
}
