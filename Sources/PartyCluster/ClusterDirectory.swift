import Logging
import NIOCore
import NIOSSL
import PostgresNIO

/// The cluster's shared directory on PostgreSQL: which node serves each party, under a lease its owner
/// renews, with the party's key hash and its last restorable state.
///
/// Use it inside ``withDirectory(url:configuration:logger:_:)``, which checks the database, migrates
/// its schema, registers this node, runs the connection pool (postgres-nio's `PostgresClient`, which
/// reconnects by itself after an outage) and the node's heartbeat for as long as the body runs, and
/// stops them when it returns. Every operation is one SQL statement (claim reads the key hash first),
/// takes at most ``ClusterConfiguration/operationTimeout``, and fails with a ``ClusterDirectoryError``:
/// ``ClusterDirectoryError/unavailable(endpoint:operation:reason:)`` while the database is out of
/// reach, after which the same operation works again once it is back.
public final class ClusterDirectory: Sendable {
    public let url: ClusterDatabaseURL
    public let configuration: ClusterConfiguration
    let client: PostgresClient
    let logger: Logger

    private init(url: ClusterDatabaseURL, configuration: ClusterConfiguration, client: PostgresClient, logger: Logger) {
        self.url = url
        self.configuration = configuration
        self.client = client
        self.logger = logger
    }

    /// Connects to the directory at `url`, runs `body` with it, and shuts it down after.
    ///
    /// Before `body` runs, one connection checks that the database answers (within
    /// ``ClusterConfiguration/connectTimeout``), migrates the schema and registers this node; any
    /// failure there throws ``ClusterDirectoryError/unreachable(endpoint:reason:)`` (or the
    /// migration's error), naming the database by host and port only.
    public static func withDirectory<T: Sendable>(
        url: ClusterDatabaseURL,
        configuration: ClusterConfiguration,
        logger: Logger = Logger(label: "tandem.cluster"),
        _ body: (ClusterDirectory) async throws -> T
    ) async throws -> T {
        try await prepare(url: url, configuration: configuration, logger: logger)
        var clientConfiguration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: clientTLS(url.tls))
        clientConfiguration.options.maximumConnections = configuration.maximumConnections
        clientConfiguration.options.connectTimeout = configuration.connectTimeout
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        let directory = ClusterDirectory(url: url, configuration: configuration, client: client, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask { await client.run() }
            group.addTask { await directory.heartbeatLoop() }
            defer { group.cancelAll() }
            return try await body(directory)
        }
    }

    // MARK: Start

    /// The startup check on a connection of its own: it fails fast and clearly where the pool would
    /// keep retrying in the background.
    private static func prepare(url: ClusterDatabaseURL, configuration: ClusterConfiguration, logger: Logger) async throws {
        let endpoint = url.endpoint
        var connectionConfiguration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: try connectionTLS(url.tls))
        connectionConfiguration.options.connectTimeout = TimeAmount(configuration.connectTimeout)
        let connectionSettings = connectionConfiguration
        let timeout = configuration.connectTimeout + configuration.operationTimeout
        do {
            try await withDeadline(timeout, timeoutError: {
                ClusterDirectoryError.unreachable(endpoint: endpoint, reason: "no answer within \(timeout)")
            }) {
                let connection: PostgresConnection
                do {
                    connection = try await PostgresConnection.connect(
                        configuration: connectionSettings, id: 1, logger: logger)
                } catch {
                    // Refused, timed out, or turned away (a wrong password, no such database).
                    throw ClusterDirectoryError.unreachable(endpoint: endpoint, reason: ClusterDirectoryError.describe(error))
                }
                do {
                    try await ClusterSchema.migrate(on: connection, logger: logger)
                    try await connection.query("""
                        INSERT INTO tandem_nodes (node_id, address) VALUES (\(configuration.nodeID), \(configuration.address))
                        ON CONFLICT (node_id) DO UPDATE
                            SET address = EXCLUDED.address, started_at = now(), heartbeat = now()
                        """, logger: logger)
                } catch {
                    try? await connection.close()
                    throw ClusterDirectoryError.from(error, endpoint: endpoint, operation: "start")
                }
                try? await connection.close()
            }
        } catch let error as ClusterDirectoryError {
            throw error
        } catch {
            throw ClusterDirectoryError.unreachable(endpoint: endpoint, reason: ClusterDirectoryError.describe(error))
        }
    }

    private static func clientTLS(_ mode: ClusterDatabaseURL.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(.makeClientConfiguration())
        case .require: return .require(.makeClientConfiguration())
        }
    }

    private static func connectionTLS(_ mode: ClusterDatabaseURL.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    // MARK: Nodes

    /// Marks this node alive now (``withDirectory(url:configuration:logger:_:)`` does it every
    /// ``ClusterConfiguration/renewPeriod``).
    public func heartbeat() async throws {
        _ = try await perform("heartbeat") { client, node, _ in
            try await Self.matchesAny(client.query("UPDATE tandem_nodes SET heartbeat = now() WHERE node_id = \(node)"))
        }
    }

    /// The nodes whose heartbeat is younger than a lease: node ID and address, by ID.
    public func liveNodes() async throws -> [(node: String, address: String)] {
        let lease = configuration.leaseLength.seconds
        return try await perform("list nodes") { client, _, _ in
            var nodes: [(node: String, address: String)] = []
            for try await (node, address) in try await client.query("""
                SELECT node_id, address FROM tandem_nodes
                WHERE heartbeat > now() - \(lease) * interval '1 second' ORDER BY node_id
                """).decode((String, String).self) {
                nodes.append((node, address))
            }
            return nodes
        }
    }

    private func heartbeatLoop() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: configuration.renewPeriod)
                try await heartbeat()
            } catch is CancellationError {
                return
            } catch {
                logger.warning("cluster heartbeat failed", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: Operations

    /// Runs one directory operation on the pool within the operation timeout, turning every failure
    /// into a ``ClusterDirectoryError`` that names `operation`.
    func perform<T: Sendable>(
        _ operation: String,
        _ body: @escaping @Sendable (PostgresClient, _ node: String, _ leaseSeconds: Double) async throws -> T
    ) async throws -> T {
        let endpoint = url.endpoint
        let timeout = configuration.operationTimeout
        let client = client
        let node = configuration.nodeID
        let lease = configuration.leaseLength.seconds
        do {
            return try await withDeadline(timeout, timeoutError: {
                ClusterDirectoryError.unavailable(endpoint: endpoint, operation: operation,
                                                  reason: "no answer within \(timeout)")
            }) {
                try await body(client, node, lease)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ClusterDirectoryError.from(error, endpoint: endpoint, operation: operation)
        }
    }
}

extension Duration {
    /// The duration in seconds, for SQL intervals.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
