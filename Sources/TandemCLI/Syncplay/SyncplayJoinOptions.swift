import ArgumentParser
import SyncplayKit

/// The options of `tandem join` that only `syncplay://` links use.
struct SyncplayJoinOptions: ParsableArguments {
    @Option(help: "Syncplay server password (syncplay:// links).") var password: String?
    @Option(help: "The file to play in a Syncplay room (default: the room's file, found by name in --media folders).")
    var file: String?
    @Option(help: "Tell a Syncplay room the file's name: raw, hashed or none.") var fileName: SyncplayPrivacy = .sendRaw
    @Option(help: "Tell a Syncplay room the file's size: raw, hashed or none.") var fileSize: SyncplayPrivacy = .sendRaw
}

extension SyncplayPrivacy: ExpressibleByArgument {}
