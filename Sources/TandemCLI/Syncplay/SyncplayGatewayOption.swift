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
    var address: SyncplayGatewayAddress

    init?(argument: String) {
        guard let address = SyncplayGatewayAddress(parsing: argument) else { return nil }
        self.address = address
    }

    /// As given: `PORT` or `HOST:PORT` (serve's `syncplay` setting).
    var description: String { address.description }

    static let help = ArgumentHelp("Also accept Syncplay clients on [HOST:]PORT: the room is the party ID, the password its key.",
                                   valueName: "[host:]port")

    /// Starts the gateway in front of `parties` and says where it listens with `say` (host: stderr,
    /// its stdout being the link or JSON lines); a port it cannot have is a clear error, exit 1.
    /// STARTTLS as ``SyncplayGatewayServer/start(at:parties:identity:logger:)`` offers it.
    func start(parties: PartyServerRunner, identity: ServerIdentity?, defaultHost: String, logger: Logger,
               say: (String) -> Void) async throws -> SyncplayGatewayServer {
        do {
            let (gateway, line) = try await SyncplayGatewayServer.start(at: address.resolved(defaultHost: defaultHost), parties: parties,
                                                                        identity: identity, logger: logger)
            say(line)
            return gateway
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
    }
}
