import Foundation
import Logging
import PartyCluster
import PostgresNIO
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The throwaway PostgreSQL that scripts/with-postgres.sh starts, as its environment describes it.
enum TestDatabase {
    static let environment = ProcessInfo.processInfo.environment

    /// `TANDEM_TEST_POSTGRES`, parsed; nil when the tests run without a database.
    static let url: ClusterDatabaseURL? = environment["TANDEM_TEST_POSTGRES"].flatMap { try? ClusterDatabaseURL(parsing: $0) }
    static var available: Bool { url != nil }
    /// Set by with-postgres.sh: a missing database is then a failure, not a skip.
    static var required: Bool { environment["TANDEM_REQUIRE_POSTGRES"] == "1" }
    static let skipReason: Comment = "TANDEM_TEST_POSTGRES is not set: run under scripts/with-postgres.sh"

    /// A name no other test (or earlier run against the same database) uses.
    static func unique(_ prefix: String) -> String {
        "\(prefix)-\(UInt32.random(in: .min ... .max))-\(UInt32.random(in: .min ... .max))"
    }

    /// The lease of nodes in tests where no lease should run out by itself: far longer than any stall
    /// of a loaded 2-core machine (and a database restart), so a live owner keeps its parties for the
    /// whole test. A test that needs a lease gone ends it with ``expire(_:)``; only tests about real
    /// expiry (a killed node's parties moving) use a short lease, and assert nothing it could break.
    static let steadyLease = Duration.seconds(60)

    /// A node configuration with the given lease.
    static func node(_ name: String, lease: Duration = steadyLease) -> ClusterConfiguration {
        var configuration = ClusterConfiguration(nodeID: unique(name), address: "wss://\(name).test:7443")
        configuration.leaseLength = lease
        return configuration
    }

    /// Runs `body` with two directories (two nodes) on the test database.
    static func withTwoNodes<T: Sendable>(
        lease: Duration = steadyLease,
        _ body: (ClusterDirectory, ClusterDirectory) async throws -> T
    ) async throws -> T {
        let url = try #require(url)
        return try await ClusterDirectory.withDirectory(url: url, configuration: node("a", lease: lease)) { a in
            try await ClusterDirectory.withDirectory(url: url, configuration: node("b", lease: lease)) { b in
                try await body(a, b)
            }
        }
    }

    /// Whether no node holds a live lease on the party (false while the lookup fails).
    static func isFree(_ party: String, in directory: ClusterDirectory) async -> Bool {
        do { return try await directory.lookup(party: party) == nil } catch { return false }
    }

    /// Ends `lease` as time does for an owner that stopped renewing (a killed node): its expiry moves
    /// into the past on PostgreSQL's clock, the only clock the directory's claims and lookups read.
    /// Owner, generation and snapshot stay, so what follows is what follows a real expiry, without
    /// waiting out a short lease that a stall on a loaded machine could also end too early.
    static func expire(_ lease: PartyLease) async throws {
        let expired = try await withConnection { connection in
            var matched = false
            for try await _ in try await connection.query("""
                UPDATE tandem_parties SET lease_expires = now() - interval '1 second'
                WHERE party_id = \(lease.party) AND lease_generation = \(lease.generation)
                RETURNING party_id
                """, logger: sqlLogger) {
                matched = true
            }
            return matched
        }
        try #require(expired, "no lease of generation \(lease.generation) on \(lease.party) to expire")
    }

    /// The node the party's row names as owner, its lease live or run out (nil without a row): who
    /// holds the party, even while a stall of the owner's renewals has let its lease lapse for a
    /// moment (the owner renews it after, as nobody else claimed it).
    static func holder(of party: String) async throws -> String? {
        try await withConnection { connection in
            var holder: String?
            for try await (node) in try await connection.query(
                "SELECT owner_node FROM tandem_parties WHERE party_id = \(party)", logger: sqlLogger
            ).decode(String.self) {
                holder = node
            }
            return holder
        }
    }

    static let sqlLogger = Logger(label: "test.sql")

    /// Makes every node registered so far dead to the directory (its heartbeat a day old). A node of
    /// an earlier test that was killed, not stopped, stays listed for a lease; its address is a
    /// loopback port that a server of a test running meanwhile (the suite runs in parallel) may have
    /// taken since, and a member of this test failing over to it would dial that server.
    static func forgetEarlierNodes() async {
        guard available else { return }
        _ = try? await withConnection { connection in
            try await connection.query("UPDATE tandem_nodes SET heartbeat = now() - interval '1 day'", logger: sqlLogger)
        }
    }

    /// Runs `body` on a connection of its own to the test database (loopback, without TLS, as
    /// with-postgres.sh starts it), closed after.
    static func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let url = try #require(url)
        let configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: sqlLogger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs pg_ctl on the test server (as the user with-postgres.sh runs it as), e.g. `stop -m fast`.
    static func pgctl(_ arguments: [String]) async throws {
        let bin = try #require(environment["TANDEM_TEST_POSTGRES_BIN"])
        let data = try #require(environment["TANDEM_TEST_POSTGRES_DATA"])
        let runAs = environment["TANDEM_TEST_POSTGRES_RUNAS"] ?? ""
        var command = ["\(bin)/pg_ctl", "-D", data, "-s", "-w", "-t", "60"] + arguments
        if !runAs.isEmpty { command = ["/usr/sbin/runuser", "-u", runAs, "--"] + command }
        // Its output is not awaited: the server that `pg_ctl start` leaves running keeps it open.
        let status = try await ChildProcess.run(command[0], Array(command.dropFirst()), standardOutput: .inherit,
                                                standardError: .inherit, within: 120).status
        #expect(status == 0, "pg_ctl \(arguments.joined(separator: " ")) exited with \(status)")
    }

    /// Starts the test server again after `pgctl(["stop", …])`, with the options with-postgres.sh gave it.
    static func startServer() async throws {
        let options = try #require(environment["TANDEM_TEST_POSTGRES_OPTIONS"])
        let log = try #require(environment["TANDEM_TEST_POSTGRES_LOG"])
        try await pgctl(["-l", log, "-o", options, "start"])
    }
}

@Suite struct TestDatabaseTests {
    /// Under with-postgres.sh (and so in CI) the database-backed tests must run, not skip.
    @Test func requiredDatabaseIsThere() {
        if TestDatabase.required {
            #expect(TestDatabase.available, "TANDEM_REQUIRE_POSTGRES=1 but TANDEM_TEST_POSTGRES is missing or not a postgres:// URL")
        }
    }
}
