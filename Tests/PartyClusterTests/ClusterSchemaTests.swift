import Foundation
@testable import PartyCluster
import PostgresNIO
import Testing

/// Schema creation on a fresh database of its own (made and dropped here).
@Suite(.serialized, .usingTheDatabase, .enabled(if: TestDatabase.available, TestDatabase.skipReason))
struct ClusterSchemaTests {
    /// Runs `body` with the URL of a new empty database, dropped afterwards.
    static func withFreshDatabase(_ body: (ClusterDatabaseURL) async throws -> Void) async throws {
        let url = try #require(TestDatabase.url)
        let name = TestDatabase.unique("tandem_schema").replacingOccurrences(of: "-", with: "_")
        let admin = try await PostgresConnection.connect(
            configuration: .init(host: url.host, port: url.port, username: url.user, password: url.password,
                                 database: url.database, tls: .disable),
            id: 1, logger: Logger(label: "test"))
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Logger(label: "test"))
        var fresh = url
        fresh.database = name
        do {
            try await body(fresh)
        } catch {
            _ = try? await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: Logger(label: "test"))
            try? await admin.close()
            throw error
        }
        try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: Logger(label: "test"))
        try await admin.close()
    }

    static func versions(_ directory: ClusterDirectory) async throws -> [Int] {
        try await directory.perform("versions") { client, _, _ in
            var versions: [Int] = []
            for try await v in try await client.query("SELECT version FROM tandem_schema ORDER BY version").decode(Int.self) {
                versions.append(v)
            }
            return versions
        }
    }

    /// Three nodes start at once on an empty database, then one again: the schema is made exactly once.
    @Test func migrationIsOnceAndIdempotent() async throws {
        try await Self.withFreshDatabase { url in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<3 {
                    group.addTask {
                        try await ClusterDirectory.withDirectory(url: url, configuration: TestDatabase.node("m\(i)")) { _ in }
                    }
                }
                try await group.waitForAll()
            }
            let (versions, nodes) = try await ClusterDirectory.withDirectory(
                url: url, configuration: TestDatabase.node("again")
            ) { directory in
                (try await Self.versions(directory), try await directory.liveNodes().count)
            }
            #expect(versions == Array(1...ClusterSchema.latest))
            #expect(nodes == 4)
        }
    }

    @Test func aNewerSchemaIsRefused() async throws {
        try await Self.withFreshDatabase { url in
            try await ClusterDirectory.withDirectory(url: url, configuration: TestDatabase.node("old")) { directory in
                _ = try await directory.perform("bump") { client, _, _ in
                    try await ClusterDirectory.matchesAny(client.query("INSERT INTO tandem_schema (version) VALUES (99)"))
                }
            }
            await #expect(throws: ClusterDirectoryError.schemaTooNew(found: 99, supported: ClusterSchema.latest)) {
                try await ClusterDirectory.withDirectory(url: url, configuration: TestDatabase.node("new")) { _ in }
            }
        }
    }
}
