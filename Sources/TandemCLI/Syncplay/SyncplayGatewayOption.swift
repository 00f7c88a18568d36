import TandemBase
import TandemApp
import ArgumentParser
import Logging
import PartySecurity
import PartyServer
import SyncplayGateway

/// `--syncplay [HOST:]PORT` of `serve` and a self-serving `host`: where the Syncplay gateway
/// listens (docs/syncplay.md). Without a host, the party server's own listening address.
struct SyncplayGatewayOption: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var host: String?
    var port: Int

    init?(argument: String) {
        if let port = Int(argument), (0...65535).contains(port) {
            host = nil
            self.port = port
        } else if let both = HostPort(parsing: argument) {
            host = both.host
            port = both.port
        } else {
            return nil
        }
    }

    /// As given: `PORT` or `HOST:PORT` (serve's `syncplay` setting).
    var description: String { host.map { HostPort(host: $0, port: port).description } ?? "\(port)" }

    static let help = ArgumentHelp("Also accept Syncplay clients on [HOST:]PORT: the room is the party ID, the password its key.",
                                   valueName: "[host:]port")

    /// Starts the gateway in front of `parties` and says where it listens with `say` (serve: stdout,
    /// as its "listening on"; host: stderr, its stdout being the link or JSON lines); a port it
    /// cannot have is a clear error, exit 1. With the party server's `identity` when a CA issued it
    /// (`--cert`/`--cert-key`), Syncplay clients asking for STARTTLS get it. Not with Tandem's own
    /// self-signed certificate: Syncplay's client verifies against its trust roots, and on a
    /// failed verification it stops instead of going on in plain text, so offering that
    /// certificate would shut every ordinary Syncplay client out.
    func start(parties: PartyServerRunner, identity: ServerIdentity?, defaultHost: String, logger: Logger,
               say: (String) -> Void = { FileHandleOutput.standardOutput.write($0 + "\n") }) async throws -> SyncplayGatewayServer {
        let address = HostPort(host: host ?? defaultHost, port: port)
        do {
            let tls = try identity.flatMap { $0.selfSigned ? nil : try $0.makeServerContext() }
            let gateway = try await SyncplayGatewayServer.start(host: address.host, port: address.port, parties: parties, tls: tls, logger: logger)
            let encryption = tls != nil ? "STARTTLS with the party server's certificate"
                : identity == nil ? "plain TCP: STARTTLS is declined"
                : "plain TCP: STARTTLS is declined, Syncplay clients refuse a self-signed certificate; --cert/--cert-key to offer it"
            say("syncplay gateway on \(HostPort(host: address.host, port: gateway.port)) (\(encryption))")
            return gateway
        } catch {
            printError("cannot listen for Syncplay clients on \(address): \(error)")
            throw ExitCode.failure
        }
    }
}
