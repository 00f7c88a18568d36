import Logging
import PostgresNIO

/// The directory's tables, created and upgraded when a node starts.
///
/// Each migration runs once, in order, recorded in `tandem_schema`. A node migrates in one
/// transaction under an advisory lock, so nodes starting together neither race nor half-apply a
/// version, and starting again changes nothing. A database migrated by a newer node (a version this
/// build does not know) is refused rather than written with the wrong idea of its tables.
enum ClusterSchema {
    /// The advisory lock all nodes take to migrate: any fixed number, the same in every build ("tandem").
    static let migrationLock: Int64 = 0x74_61_6e_64_65_6d

    /// The migrations, version `index + 1`. Append only: a released one never changes.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE tandem_nodes (
                node_id    text PRIMARY KEY,
                address    text NOT NULL,
                started_at timestamptz NOT NULL DEFAULT now(),
                heartbeat  timestamptz NOT NULL DEFAULT now()
            )
            """,
            """
            CREATE TABLE tandem_parties (
                party_id         text PRIMARY KEY,
                owner_node       text NOT NULL REFERENCES tandem_nodes (node_id),
                lease_generation bigint NOT NULL,
                lease_expires    timestamptz NOT NULL,
                key_salt         text NOT NULL,
                key_hash         text NOT NULL,
                epoch            bigint NOT NULL DEFAULT 0,
                snapshot         jsonb,
                saved_at         timestamptz,
                created_at       timestamptz NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX tandem_parties_owner ON tandem_parties (owner_node)",
        ],
        [
            // The owner's save order within an epoch (a new seat is saved without a new epoch), so an
            // older seat list cannot overwrite a newer one when two saves cross.
            "ALTER TABLE tandem_parties ADD COLUMN save_sequence bigint NOT NULL DEFAULT 0",
        ],
    ]

    /// The version this build creates and understands.
    static var latest: Int { migrations.count }

    /// Brings the database to ``latest``; returns the version it found.
    @discardableResult
    static func migrate(on connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS tandem_schema (version integer NOT NULL)", logger: logger)
            var found = 0
            for try await (version) in try await connection.query(
                "SELECT coalesce(max(version), 0)::integer FROM tandem_schema", logger: logger
            ).decode(Int.self) {
                found = version
            }
            guard found <= latest else { throw ClusterDirectoryError.schemaTooNew(found: found, supported: latest) }
            for version in stride(from: found + 1, through: latest, by: 1) {
                for statement in migrations[version - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO tandem_schema (version) VALUES (\(version))", logger: logger)
                logger.info("cluster directory schema migrated", metadata: ["version": "\(version)"])
            }
            return found
        }
    }
}
