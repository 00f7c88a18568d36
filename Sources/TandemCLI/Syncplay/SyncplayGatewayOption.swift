import ArgumentParser
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
}
