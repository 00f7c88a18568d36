import Foundation

/// A test step that did not finish within its failure bound. Thrown by ``within(_:_:_:)``,
/// ``waitUntil(_:within:isolation:_:)`` and ``ChildProcess``'s waits; a test that lets it through
/// fails with its description.
public struct TimedOut: Error, CustomStringConvertible, Sendable {
    public let what: String
    public let seconds: Double
    public init(what: String, seconds: Double) {
        self.what = what
        self.seconds = seconds
    }
    public var description: String { "timed out after \(seconds) s waiting for \(what)" }
}

/// The failure bound tests use when they name none: generous for a loaded 2-core machine running
/// the suite in parallel. It only turns a hang into a failure; nothing waits for it to pass.
public let defaultBound: Double = 30

/// Runs `body`, throwing ``TimedOut`` (and cancelling `body`) if it has not finished after
/// `seconds` — a failure bound, never a measurement.
public func within<T: Sendable>(_ seconds: Double = defaultBound, _ what: String = "a test step",
                                _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut(what: what, seconds: seconds)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Checks `condition` every `interval` until it holds; `false` if it still does not after `seconds`.
/// For states other threads or processes reach with no event to await; the wait is a `Task.sleep`,
/// so the cooperative pool is never blocked. The condition runs on the caller's actor.
public func eventually(within seconds: Double = defaultBound, every interval: Duration = .milliseconds(20),
                       isolation: isolated (any Actor)? = #isolation,
                       _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(seconds)
    while clock.now < deadline {
        if try await condition() { return true }
        do { try await Task.sleep(for: interval) } catch { break }  // cancelled: one last look
    }
    return try await condition()
}

/// ``eventually(within:isolation:_:)`` that throws ``TimedOut`` naming `what` when the condition
/// never held, for tests that cannot go on without it.
public func waitUntil(_ what: String, within seconds: Double = defaultBound, every interval: Duration = .milliseconds(20),
                      isolation: isolated (any Actor)? = #isolation,
                      _ condition: () async throws -> Bool) async throws {
    guard try await eventually(within: seconds, every: interval, isolation: isolation, condition) else {
        throw TimedOut(what: what, seconds: seconds)
    }
}

/// Runs blocking `work` (a blocking read, a `waitpid`, a library call that sleeps) on a thread of
/// its own and returns its result, so that the blocking never holds a thread of the cooperative
/// pool that other tests' tasks need.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// ``onOwnThread(_:)`` for work that cannot fail.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// ``waitUntil(_:within:every:isolation:_:)`` with its bound as a `Duration`.
public func waitUntil(_ what: String, within bound: Duration, every interval: Duration = .milliseconds(20),
                      isolation: isolated (any Actor)? = #isolation,
                      _ condition: () async throws -> Bool) async throws {
    let seconds = Double(bound.components.seconds) + Double(bound.components.attoseconds) * 1e-18
    try await waitUntil(what, within: seconds, every: interval, isolation: isolation, condition)
}
