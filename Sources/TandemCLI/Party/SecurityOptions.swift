import TandemApp
import ArgumentParser
import Foundation
import PartyKit
import PartySecurity

/// The TLS options every party command shares: where state is kept, and the explicit opt-out.
struct SecurityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Folder for the server certificate and known servers (default: $XDG_STATE_HOME/tandem, else ~/.local/state/tandem).",
                               valueName: "dir"))
    var stateDir: String?
    @Flag(help: "Plain ws:// and http://, no TLS: the key, chat and media travel unencrypted. Both sides must say it.")
    var insecure = false

    var state: StateDirectory { StateDirectory(path: stateDir ?? StateDirectory.defaultPath()) }
}

/// `--cert`/`--cert-key` for a command that serves a party.
struct ServingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The server's certificate chain, PEM (e.g. Let's Encrypt's fullchain.pem); links then carry no fingerprint.",
                               valueName: "file"))
    var cert: String?
    @Option(help: ArgumentHelp("The private key of --cert, PEM.", valueName: "file")) var certKey: String?

    func validate() throws {
        if (cert == nil) != (certKey == nil) { throw ValidationError("--cert and --cert-key go together") }
    }
}
