/// What a Syncplay client tells its user: who came and went, chat, readiness, who paused or
/// seeked, and problems that do not end the session.
public enum SyncplayNotice: Sendable, Equatable {
    /// Logged in: the room, the name the server gave us (it may add "_"), its version and motd.
    case connected(room: String, name: String, serverVersion: String, motd: String?)
    case userJoined(String)
    case userLeft(String)
    /// A user announced (or changed) its file.
    case userFile(String, SyncplayFile)
    /// Who is in the room (a `List` answer), with their files and readiness.
    case users([SyncplayUserList.Entry])
    case ready(String, Bool)
    case chat(from: String, text: String)
    case paused(by: String?)
    case resumed(by: String?)
    case seeked(by: String?, to: Double)
    case playlist(by: String?, files: [String])
    /// Something worth a line that is not an error of the session ("the server offers no TLS").
    case note(String)
    /// The connection to the server was lost (why): the session reconnects by itself, and says
    /// ``connected(room:name:serverVersion:motd:)`` again once back in the room.
    case connectionLost(String)

    /// One line for people.
    public var text: String {
        switch self {
        case .connected(let room, let name, let version, let motd):
            "joined Syncplay room \(room) as \(name) (server \(version))" + (motd.map { $0.isEmpty ? "" : "\n\($0)" } ?? "")
        case .userJoined(let name): "\(name) joined the room"
        case .userLeft(let name): "\(name) left the room"
        case .userFile(let name, let file): "\(name) is playing \(file.name) (\(Self.clock(file.duration)))"
        case .users(let entries):
            "here: " + entries.map { entry in
                let ready = entry.isReady.map { $0 ? " (ready)" : " (not ready)" } ?? ""
                return entry.username + ready + (entry.file.map { ": \($0.name)" } ?? "")
            }.joined(separator: ", ")
        case .ready(let name, let ready): "\(name) is \(ready ? "ready" : "not ready")"
        case .chat(let from, let text): "<\(from)> \(text)"
        case .paused(let by): "\(by ?? "the room") paused"
        case .resumed(let by): "\(by ?? "the room") resumed"
        case .seeked(let by, let to): "\(by ?? "the room") jumped to \(Self.clock(to))"
        case .playlist(let by, let files): "\(by ?? "the room") set the playlist: \(files.joined(separator: ", "))"
        case .note(let line): line
        case .connectionLost(let reason): "connection lost (\(reason)); reconnecting"
        }
    }

    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.isFinite ? seconds : 0))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
