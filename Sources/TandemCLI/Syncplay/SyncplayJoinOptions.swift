import TandemApp
import ArgumentParser
import NIOSSL
import SyncplayKit

/// The options of `tandem join` that only `syncplay://` links use.
struct SyncplayJoinOptions: ParsableArguments {
    @Option(help: "Syncplay server password (syncplay:// links).") var password: String?
    @Option(help: "The file to play in a Syncplay room (default: the room's file, found by name in --media folders).")
    var file: String?
    @Option(help: "Tell a Syncplay room the file's name: raw, hashed or none.") var fileName: SyncplayPrivacy = .sendRaw
    @Option(help: "Tell a Syncplay room the file's size: raw, hashed or none.") var fileSize: SyncplayPrivacy = .sendRaw
    @Flag(help: "Do not ask a Syncplay server for STARTTLS (by default it is asked, and used when it agrees).")
    var noStarttls = false
    @Option(help: ArgumentHelp("Trust this root certificate (PEM) for a Syncplay server's STARTTLS (default: the system's).",
                               valueName: "file"))
    var syncplayCA: String?

    /// How STARTTLS verifies the server.
    func tlsConfiguration() -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let syncplayCA { tls.trustRoots = .file(syncplayCA) }
        return tls
    }
}

extension SyncplayPrivacy: ExpressibleByArgument {}
