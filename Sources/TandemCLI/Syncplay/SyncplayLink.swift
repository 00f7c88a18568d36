import TandemApp
import ArgumentParser
import Foundation

/// `syncplay://HOST[:PORT]/ROOM`: a room on a Syncplay server (port 8999 when none is given;
/// the room name may be percent-encoded).
struct SyncplayLink: Sendable, Equatable {
    /// Syncplay's default port.
    static let defaultPort = 8999
    static let scheme = "syncplay"

    var host: String
    var port: Int
    var room: String

    /// nil when `text` is not a `syncplay:` link; throws when it is one but malformed.
    static func parse(_ text: String) throws -> SyncplayLink? {
        guard text.lowercased().hasPrefix(scheme + ":") else { return nil }
        guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty else {
            throw ValidationError("bad Syncplay link \"\(text)\": expected syncplay://HOST[:PORT]/ROOM")
        }
        if let port = url.port, !(1...65535).contains(port) {
            throw ValidationError("bad Syncplay link \"\(text)\": port \(port) is out of range")
        }
        let room = String(url.path.drop { $0 == "/" })
        guard !room.isEmpty else { throw ValidationError("bad Syncplay link \"\(text)\": no room (syncplay://HOST[:PORT]/ROOM)") }
        return SyncplayLink(host: host, port: url.port ?? defaultPort, room: room)
    }
}
