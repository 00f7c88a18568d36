import Testing
import TestSupport

/// The test database is one server for the whole run, and the cluster tests on it are real-time:
/// nodes with leases, members with players, takeovers with time bounds. Each test of a suite given
/// ``Trait/usingTheDatabase`` holds ``AsyncLock/database`` while it runs, so the cluster tests run
/// one at a time (in parallel with the rest of the suite): none meets an outage another test caused
/// (two of them stop or restart the server), none races another for the machine's two cores, and
/// none sees the nodes an earlier one left registered (``TestDatabase/forgetEarlierNodes()``).
struct UsingTheDatabase: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await AsyncLock.database.lock()
        defer { AsyncLock.database.unlock() }
        await TestDatabase.forgetEarlierNodes()
        try await function()
    }
}

extension Trait where Self == UsingTheDatabase {
    /// Each test holds the test database alone while it runs.
    static var usingTheDatabase: Self { UsingTheDatabase() }
}
