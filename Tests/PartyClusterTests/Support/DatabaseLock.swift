import Testing
import TestSupport

/// The test database is one server for the whole run: each test of a suite given
/// ``Trait/usingTheDatabase`` holds a share of ``AsyncLock/database`` while it runs, and a test given
/// ``Trait/stoppingTheDatabase`` (it stops or restarts the server) holds it alone, so that no other
/// test meets an outage it did not cause.
struct UsingTheDatabase: SuiteTrait, TestTrait, TestScoping {
    let exclusive: Bool

    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        guard testCase != nil else { return nil }
        // A test that stops the server holds the lock alone, by its own trait: no share as well.
        if !exclusive, test.traits.contains(where: { ($0 as? UsingTheDatabase)?.exclusive == true }) { return nil }
        return self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if exclusive {
            await AsyncLock.database.lock()
            defer { AsyncLock.database.unlock() }
            try await function()
        } else {
            await AsyncLock.database.lockShared()
            defer { AsyncLock.database.unlockShared() }
            try await function()
        }
    }
}

extension Trait where Self == UsingTheDatabase {
    /// Each test holds a share of the test database.
    static var usingTheDatabase: Self { UsingTheDatabase(exclusive: false) }
    /// The test stops or restarts the test database: it runs alone among the tests using it.
    static var stoppingTheDatabase: Self { UsingTheDatabase(exclusive: true) }
}
