import Logging
import PartySecurity
import PartyServer
import TandemBase

/// Where a Syncplay gateway listens: `[HOST:]PORT`, as `serve`'s `syncplay` setting and a
/// self-serving `host`'s `--syncplay` take it. Without a host, the party server's own listening host.
public struct SyncplayGatewayAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String?
    public var port: Int

    public init(host: String?, port: Int) {
        self.host = host
        self.port = port
    }

    /// `PORT` or `HOST:PORT` (`[IPv6]:PORT`); nil for anything else.
    public init?(parsing text: String) {
        if let port = Int(text), (0...65535).contains(port) {
            self.init(host: nil, port: port)
        } else if let both = HostPort(parsing: text) {
            self.init(host: both.host, port: both.port)
        } else {
            return nil
        }
    }

    /// As given: `PORT` or `HOST:PORT`.
    public var description: String { host.map { HostPort(host: $0, port: port).description } ?? "\(port)" }

    /// The address to listen on, `defaultHost` (the party server's) when none was given.
    public func resolved(defaultHost: String) -> HostPort { HostPort(host: host ?? defaultHost, port: port) }
}

extension SyncplayGatewayServer {
    /// Starts a gateway at `address` in front of `parties`; returns it and the line that says where it
    /// listens (`syncplay gateway on HOST:PORT (…)`). With the party server's `identity` when a CA issued
    /// it (`cert`/`cert.key`), Syncplay clients asking for STARTTLS get it. Not with Tandem's own
    /// self-signed certificate: Syncplay's client verifies against its trust roots, and on a failed
    /// verification it stops instead of going on in plain text, so offering that certificate would
    /// shut every ordinary Syncplay client out. A port it cannot have is ``ListenError`` (one line).
    public static func start(at address: HostPort, parties: PartyServerRunner, identity: ServerIdentity?,
                             logger: Logger) async throws(ListenError) -> (gateway: SyncplayGatewayServer, line: String) {
        do {
            let tls = try identity.flatMap { $0.selfSigned ? nil : try $0.makeServerContext() }
            let gateway = try await start(host: address.host, port: address.port, parties: parties, tls: tls, logger: logger)
            let encryption = tls != nil ? "STARTTLS with the party server's certificate"
                : identity == nil ? "plain TCP: STARTTLS is declined"
                : "plain TCP: STARTTLS is declined, Syncplay clients refuse a self-signed certificate; --cert/--cert-key to offer it"
            return (gateway, "syncplay gateway on \(HostPort(host: address.host, port: gateway.port)) (\(encryption))")
        } catch {
            throw ListenError(description: "cannot listen for Syncplay clients on \(address): \(error)")
        }
    }

    /// A gateway that could not start: what to tell the user, one line.
    public struct ListenError: Error, CustomStringConvertible {
        public var description: String
    }
}
