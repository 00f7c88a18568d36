import PartyCluster
import PartyKit
import Testing
import TestSupport

/// The directory against a database that is not there, goes away, or comes back.
@Suite(.serialized, .usingTheDatabase)
struct ClusterOutageTests {
    static let key = "ABCDEFGHJKMNPQRSTUVW"

    /// Nothing listens at the URL: starting fails at once, naming host and port and why, never the password.
    @Test func aDatabaseDownAtStartIsAClearError() async throws {
        let port = try LoopbackPort.free()
        let url = try ClusterDatabaseURL(parsing: "postgres://tandem:hunter2@127.0.0.1:\(port)/tandem")
        let started = ContinuousClock.now
        do {
            let _: Void = try await ClusterDirectory.withDirectory(url: url, configuration: TestDatabase.node("down")) { _ in
                Issue.record("the directory started without a database")
            }
        } catch let error as ClusterDirectoryError {
            guard case .unreachable = error else { Issue.record("not an unreachable error: \(error)"); return }
            #expect(error.description.hasPrefix("cannot reach the cluster database at 127.0.0.1:\(port): "))
            #expect(error.description.contains("refused"), "\(error)")
            #expect(!error.description.contains("hunter2"))
        }
        // It fails, rather than waiting out the pool's retries (a generous bound).
        #expect(ContinuousClock.now - started < ClusterConfiguration.defaultConnectTimeout)
    }

    @Test(.enabled(if: TestDatabase.available, TestDatabase.skipReason))
    func anUnknownDatabaseIsAClearError() async throws {
        var url = try #require(TestDatabase.url)
        url.database = "no_such_database"
        let error = await #expect(throws: ClusterDirectoryError.self) {
            try await ClusterDirectory.withDirectory(url: url, configuration: TestDatabase.node("nodb")) { _ in }
        }
        #expect(error?.description.hasPrefix("cannot reach the cluster database at \(url.endpoint): ") == true)
        #expect(error?.description.contains("\"no_such_database\" does not exist") == true, "\(String(describing: error))")
    }

    /// PostgreSQL stops mid-run: operations fail with an outage error naming the database; once it is
    /// back, the same directory (its pool reconnecting by itself) works again, with its data intact.
    @Test(.enabled(if: TestDatabase.available, TestDatabase.skipReason))
    func theDirectorySurvivesADatabaseRestart() async throws {
        let url = try #require(TestDatabase.url)
        try await ClusterDirectory.withDirectory(url: url, configuration: TestDatabase.node("restart")) { a in
            let party = TestDatabase.unique("restart")
            guard case .claimed(let lease, _) = try await a.claim(party: party, key: Self.key) else {
                Issue.record("could not claim"); return
            }
            let snapshot = PartySnapshot(config: PartyConfig(items: [MediaItem(title: "x.mkv", identity: MediaIdentity(duration: 9, streams: []))]),
                                         timeline: Timeline(epoch: 6, position: 3), partyClock: 1)
            try await a.save(snapshot, lease: lease)

            try await TestDatabase.pgctl(["-m", "fast", "stop"])
            do {
                _ = try await a.lookup(party: party)
                Issue.record("a lookup worked with the database stopped")
            } catch let error as ClusterDirectoryError {
                #expect(error.isOutage, "\(error)")
                #expect(error.description.hasPrefix("the cluster database at \(url.endpoint) is unavailable (lookup of \"\(party)\"): "), "\(error)")
            }
            await #expect(throws: ClusterDirectoryError.self) { try await a.renew(lease) }

            try await TestDatabase.startServer()
            try await waitUntil("the directory works again", within: .seconds(60), every: .milliseconds(100)) { (try? await a.lookup(party: party)) != nil }
            #expect(try await a.lookup(party: party)?.node == a.configuration.nodeID)
            #expect(try await a.restore(party: party)?.timeline == snapshot.timeline)
            _ = try await a.renew(lease)
            #expect(try await a.save(PartySnapshot(config: snapshot.config, timeline: Timeline(epoch: 7), partyClock: 2), lease: lease) == .saved)
        }
    }
}
