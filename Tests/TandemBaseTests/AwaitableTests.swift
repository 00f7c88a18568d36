import Synchronization
import TandemBase
import Testing

/// The one waiter: a latch, a value waited on until it changes, a one-shot result; cancellation.
/// No test sleeps: a test that needs a waiter in place waits until ``Awaitable/waiting`` says so.
@Suite(.timeLimit(.minutes(1))) struct AwaitableTests {
    /// Yields until `count` tasks wait on `awaitable` (they have looked at the value and gone to sleep).
    private func waiters<V>(_ count: Int, on awaitable: Awaitable<V>) async {
        while awaitable.waiting < count { await Task.yield() }
    }

    @Test func aLatchOpenedBeforeTheWaitLetsItThroughAtOnce() async throws {
        let latch = Awaitable(false)
        latch.withLock { $0 = true }
        #expect(try await latch.wait(until: { $0 }) == true)
        #expect(latch.waiting == 0)
        // It stays open: a later waiter goes on too.
        #expect(try await latch.wait(until: { $0 }) == true)
    }

    @Test func aWaiterGoesOnOnlyOnceItsConditionHolds() async throws {
        let value = Awaitable(0)
        let waiter = Task { try await value.wait(until: { $0 >= 3 }) }
        await waiters(1, on: value)
        value.withLock { $0 = 1 }
        value.withLock { $0 = 2 }
        // Changes that do not meet the condition leave it waiting.
        #expect(value.waiting == 1)
        value.withLock { $0 = 3 }
        #expect(try await waiter.value == 3)
        #expect(value.waiting == 0)
    }

    @Test func aValueIsWaitedOnUntilItChanges() async throws {
        let node = Awaitable<String?>("a")
        let waiter = Task { try await node.wait(until: { $0 != "a" }) }
        await waiters(1, on: node)
        node.withLock { $0 = "a" }  // set again, not changed
        #expect(node.waiting == 1)
        node.withLock { $0 = nil }
        #expect(try await waiter.value == .some(nil))
    }

    @Test func aCancelledWaiterThrowsAndIsRemoved() async {
        let latch = Awaitable(false)
        let waiter = Task { try await latch.wait(until: { $0 }) }
        await waiters(1, on: latch)
        waiter.cancel()
        // Removed by the cancellation itself (its handler runs in `cancel()`), before the task goes on.
        #expect(latch.waiting == 0)
        // Opened now, it resumes nothing twice (that would trap), and a waiter the cancellation left
        // behind would go on with `true` instead of throwing.
        latch.withLock { $0 = true }
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func aTaskCancelledBeforeItWaitsThrowsAtOnce() async {
        let latch = Awaitable(false)
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await latch.wait(until: { $0 })
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(latch.waiting == 0)
    }

    @Test func aConditionAlreadyMetWinsOverCancellation() async throws {
        let latch = Awaitable(true)
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await latch.wait(until: { $0 })
        }
        #expect(try await waiter.value == true)
    }

    @Test func cancellingOneWaiterLeavesTheOthers() async throws {
        let latch = Awaitable(false)
        let kept = Task { try await latch.wait(until: { $0 }) }
        await waiters(1, on: latch)
        let cancelled = Task { try await latch.wait(until: { $0 }) }
        await waiters(2, on: latch)
        cancelled.cancel()
        #expect(latch.waiting == 1)
        latch.withLock { $0 = true }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(try await kept.value == true)
    }

    @Test func manyWaitersGoOnEachWhenItsOwnConditionHolds() async throws {
        let level = Awaitable(0)
        let tasks = (1...100).map { threshold in Task { try await level.wait(until: { $0 >= threshold }) } }
        await waiters(100, on: level)
        level.withLock { $0 = 40 }
        for task in tasks[..<40] { #expect(try await task.value == 40) }
        #expect(level.waiting == 60)
        level.withLock { $0 = 100 }
        for task in tasks[40...] { #expect(try await task.value == 100) }
        #expect(level.waiting == 0)
    }

    @Test func aOneShotResultIsSetByTheFirstOnly() async throws {
        let outcome = Awaitable<Result<Int, TestError>?>(nil)
        let waiter = Task { try await outcome.wait(until: { $0 != nil }) }
        outcome.withLock { $0 = $0 ?? .success(1) }
        outcome.withLock { $0 = $0 ?? .failure(TestError()) }
        #expect(try await waiter.value.map { try $0.get() } == 1)
        #expect(outcome.value.map { try? $0.get() } == 1)
    }

    @Test func aChangeBetweenTheFirstLookAndTheRegistrationIsNotMissed() async throws {
        // A condition false at its first look and true at any later one stands for a value changed
        // just after that look: the waiter must look again as it registers, under the lock, or it
        // would sleep through it (until the time limit cancels it).
        final class Looks: Sendable { let count = Atomic(0) }
        let looks = Looks()
        let value = Awaitable(0)
        try await value.wait(until: { _ in looks.count.add(1, ordering: .relaxed).newValue > 1 })
        #expect(looks.count.load(ordering: .relaxed) == 2)
        #expect(value.waiting == 0)
    }

    @Test func noWakeIsLostWhenTheChangeRacesTheWait() async throws {
        for _ in 0..<500 {
            let latch = Awaitable(false)
            async let waited = latch.wait(until: { $0 })
            let opener = Task.detached { latch.withLock { $0 = true } }
            #expect(try await waited == true)
            await opener.value
            #expect(latch.waiting == 0)
        }
    }

    @Test func aThrowingChangeStillWakesTheWaiters() async throws {
        let value = Awaitable(0)
        let waiter = Task { try await value.wait(until: { $0 == 1 }) }
        await waiters(1, on: value)
        #expect(throws: TestError.self) {
            try value.withLock { (v: inout Int) throws(TestError) in
                v = 1
                throw TestError()
            }
        }
        #expect(try await waiter.value == 1)
    }

    struct TestError: Error, Equatable {}
}
