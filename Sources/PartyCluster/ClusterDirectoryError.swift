import NIOCore
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a directory operation failed. Every message names the database by `HOST:PORT` only: never its
/// user's password, never a party key.
public enum ClusterDirectoryError: Error, Equatable, CustomStringConvertible {
    /// The database could not be reached or refused us when the directory started
    /// (`reason`: "connection refused", "password authentication failed for user …").
    case unreachable(endpoint: String, reason: String)
    /// The database stopped answering mid-run: the operation did not happen (or its outcome is
    /// unknown, for a write that timed out). The directory reconnects by itself; try again later.
    case unavailable(endpoint: String, operation: String, reason: String)
    /// The database answered the operation with an error (a bug or a changed schema, not an outage).
    /// Also the outcome of a claim that lost every one of its reruns to parties changing hands.
    case failed(operation: String, reason: String)
    /// The database holds a newer schema than this build knows: a newer node migrated it.
    case schemaTooNew(found: Int, supported: Int)
    /// This node's lease on the party is gone: another node took the party over, or it was released.
    /// The node must stop serving the party (its members will find the new owner).
    case leaseLost(party: String)
    /// A party's saved state could not be read back.
    case badSnapshot(party: String, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let endpoint, let reason):
            return "cannot reach the cluster database at \(endpoint): \(reason)"
        case .unavailable(let endpoint, let operation, let reason):
            return "the cluster database at \(endpoint) is unavailable (\(operation)): \(reason)"
        case .failed(let operation, let reason):
            return "the cluster database refused \(operation): \(reason)"
        case .schemaTooNew(let found, let supported):
            return "the cluster database has directory schema version \(found), this tandem knows up to \(supported): upgrade this node"
        case .leaseLost(let party):
            return "this node no longer owns party \"\(party)\": another node took it over"
        case .badSnapshot(let party, let reason):
            return "the saved state of party \"\(party)\" cannot be read: \(reason)"
        }
    }

    /// Whether the error says the database is out of reach (as opposed to a refusal or a lost lease).
    public var isOutage: Bool {
        switch self {
        case .unreachable, .unavailable: return true
        default: return false
        }
    }

    /// The error an operation's failure becomes: an SQL error from the server is a refusal, anything
    /// else (connection refused, closed, the pool giving up) an outage.
    static func from(_ error: any Error, endpoint: String, operation: String) -> ClusterDirectoryError {
        if let error = error as? ClusterDirectoryError { return error }
        if let transaction = error as? PostgresTransactionError,
           let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError {
            return from(inner, endpoint: endpoint, operation: operation)
        }
        if let psql = error as? PSQLError, psql.code == .server {
            // Classes 08 (connection), 53 (resources) and 57 (the server shutting down or starting
            // up) are the database going away, not a refusal of the statement.
            let state = psql.serverInfo?[.sqlState] ?? ""
            if !["08", "53", "57"].contains(where: { state.hasPrefix($0) }) {
                return .failed(operation: operation, reason: describe(error))
            }
        }
        return .unavailable(endpoint: endpoint, operation: operation, reason: describe(error))
    }

    /// A short human reason for a database or network error, without credentials: the server's message
    /// for SQL errors, the system's for socket errors.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let directory as ClusterDirectoryError:
            return directory.description
        case let transaction as PostgresTransactionError:
            if let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError { return describe(inner) }
            return "the transaction failed"
        case let psql as PSQLError:
            if let message = psql.serverInfo?[.message] {
                let state = psql.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + state
            }
            if let underlying = psql.underlying { return describe(underlying) }
            switch psql.code {
            case .serverClosedConnection: return "the server closed the connection"
            case .clientClosedConnection: return "the connection was closed"
            case .poolClosed: return "the directory is shut down"
            case .queryCancelled: return "the query was cancelled"
            case .sslUnsupported: return "the server does not offer TLS (sslmode=require)"
            default: return "\(psql.code)"
            }
        case _ where String(describing: type(of: error)) == "ConnectionPoolError":
            // postgres-nio's pool error, from a module it does not make public (`_ConnectionPoolModule`):
            // recognised by its type's name and its case's, so no underscored product is linked.
            switch Mirror(reflecting: error).children.first.map({ "\($0.value)" }) {
            case "connectionCreationCircuitBreakerTripped": return "no connection could be made for a while; retrying in the background"
            case "poolShutdown": return "the directory is shut down"
            default: return "the request was cancelled"
            }
        case let connect as NIOConnectionError:
            if let first = connect.connectionErrors.first { return describe(first.error) }
            if let dns = connect.dnsAError ?? connect.dnsAAAAError { return "cannot resolve \(connect.host): \(describe(dns))" }
            return "cannot connect to \(connect.host)"
        case let io as IOError:
            return String(cString: strerror(io.errnoCode)).lowercased()
        case is ChannelError:
            if case .connectTimeout(let t) = error as! ChannelError { return "no connection within \(t.nanoseconds / 1_000_000_000) s" }
            return "\(error)"
        default:
            return "\(error)"
        }
    }
}
