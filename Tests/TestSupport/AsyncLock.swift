import Synchronization

/// A readers–writer lock awaited without blocking a thread: a waiter is suspended, not parked, so
/// the cooperative pool stays free. For process-wide (or machine-wide) resources that tests in
/// different suites, even different test targets, share: SDL, the test database.
///
/// Waiters are served in order; consecutive shared waiters at the head are let in together.
public final class AsyncLock: Sendable {
    private struct Waiter {
        let exclusive: Bool
        let continuation: CheckedContinuation<Void, Never>
    }
    private struct State {
        var exclusive = false
        var shared = 0
        var waiters: [Waiter] = []

        func canEnter(exclusive wantsExclusive: Bool) -> Bool {
            waiters.isEmpty && !exclusive && (wantsExclusive ? shared == 0 : true)
        }
    }
    private let state = Mutex(State())

    public init() {}

    /// SDL's video and audio subsystems, chosen by environment variables and global to the process:
    /// every test that starts SDL holds this lock (exclusively) while it runs.
    public static let sdl = AsyncLock()

    /// The test database (scripts/with-postgres.sh's one server), which some tests stop and
    /// restart: the tests that use it hold this lock while they run.
    public static let database = AsyncLock()

    /// Waits until no one else holds the lock, and takes it alone. Pair with ``unlock()``.
    public func lock() async { await enter(exclusive: true) }

    /// Waits until no one holds the lock alone, and takes a share of it. Pair with ``unlockShared()``.
    public func lockShared() async { await enter(exclusive: false) }

    /// Gives up the lock taken with ``lock()``.
    public func unlock() { leave { $0.exclusive = false } }

    /// Gives up a share taken with ``lockShared()``.
    public func unlockShared() { leave { $0.shared -= 1 } }

    /// Runs `body` holding the lock alone (on the caller's actor).
    public func withLock<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        await lock()
        defer { unlock() }
        return try await body()
    }

    /// Runs `body` holding a share of the lock (on the caller's actor).
    public func withSharedLock<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        await lockShared()
        defer { unlockShared() }
        return try await body()
    }

    private func enter(exclusive: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let entered = state.withLock { state -> Bool in
                guard state.canEnter(exclusive: exclusive) else {
                    state.waiters.append(Waiter(exclusive: exclusive, continuation: continuation))
                    return false
                }
                if exclusive { state.exclusive = true } else { state.shared += 1 }
                return true
            }
            if entered { continuation.resume() }
        }
    }

    private func leave(_ release: (inout State) -> Void) {
        let admitted = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            release(&state)
            var admitted: [CheckedContinuation<Void, Never>] = []
            while let next = state.waiters.first, !state.exclusive {
                if next.exclusive {
                    guard state.shared == 0 else { break }
                    state.exclusive = true
                } else {
                    state.shared += 1
                }
                admitted.append(state.waiters.removeFirst().continuation)
            }
            return admitted
        }
        admitted.forEach { $0.resume() }
    }
}
