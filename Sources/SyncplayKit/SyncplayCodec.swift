import Foundation

/// Syncplay's wire format: one JSON object per `\r\n`-terminated line, its keys the commands.
///
/// Decoding is tolerant the way Syncplay itself is — unknown commands and unknown fields are
/// skipped, absent optional fields take Syncplay's defaults — and strict where it must be: a line
/// that is too long, not UTF-8, not JSON, not an object, or a known command whose fields have the
/// wrong kind is refused with a ``SyncplayProtocolError``.
public enum SyncplayCodec {
    /// The longest line accepted. Syncplay's Twisted LineReceiver drops peers at 16 KiB, so no real
    /// peer sends longer; a list of a few hundred users or a long playlist stays well below this.
    public static let maxLineBytes = 65_536

    /// The line terminator Syncplay writes.
    public static let terminator = "\r\n"

    // MARK: Decoding

    /// The commands of one line (without its terminator).
    public static func decode(_ line: [UInt8]) throws(SyncplayProtocolError) -> [SyncplayMessage] {
        if line.count > maxLineBytes { throw .lineTooLong(bytes: line.count, limit: maxLineBytes) }
        guard let text = String(validating: line, as: UTF8.self) else { throw .notUTF8 }
        return try decode(text)
    }

    /// The commands of one line of text (surrounding whitespace ignored).
    public static func decode(_ line: String) throws(SyncplayProtocolError) -> [SyncplayMessage] {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.utf8.count > maxLineBytes { throw .lineTooLong(bytes: trimmed.utf8.count, limit: maxLineBytes) }
        if trimmed.isEmpty { return [] }
        let json: SyncplayJSON
        do {
            json = try JSONDecoder().decode(SyncplayJSON.self, from: Data(trimmed.utf8))
        } catch {
            throw .notJSON(excerpt: SyncplayProtocolError.excerpt(trimmed))
        }
        guard let commands = json.object else { throw .notAnObject(excerpt: SyncplayProtocolError.excerpt(trimmed)) }
        var messages: [SyncplayMessage] = []
        for (command, body) in commands.sorted(by: { $0.key < $1.key }) {
            messages.append(try decode(command: command, body: body))
        }
        return messages
    }

    static func decode(command: String, body: SyncplayJSON) throws(SyncplayProtocolError) -> SyncplayMessage {
        switch command {
        case "Hello": return .hello(try hello(body))
        case "Set": return .set(try settings(body))
        case "List": return .list(body.isNull ? nil : try userList(body))
        case "State": return .state(try state(body))
        case "Chat":
            if let text = body.string { return .chat(SyncplayChat(message: text)) }
            let fields = try object(body, command: "Chat", field: "body")
            guard let message = fields["message"]?.string else { throw .badField(command: "Chat", field: "message", problem: "is not text") }
            return .chat(SyncplayChat(username: fields["username"]?.string, message: message))
        case "Error":
            if let text = body.string { return .error(text) }
            let fields = try object(body, command: "Error", field: "body")
            return .error(fields["message"]?.string ?? "(no message)")
        case "TLS":
            let fields = try object(body, command: "TLS", field: "body")
            guard let answer = fields["startTLS"]?.string else { throw .badField(command: "TLS", field: "startTLS", problem: "is not text") }
            return .tls(startTLS: answer)
        default:
            return .unknown(command)
        }
    }

    private static func object(_ value: SyncplayJSON, command: String, field: String) throws(SyncplayProtocolError) -> [String: SyncplayJSON] {
        guard let fields = value.object else { throw .badField(command: command, field: field, problem: "is not an object") }
        return fields
    }

    /// An optional field of a given kind: absent or null is nil, the wrong kind is an error.
    private static func optional<T>(_ fields: [String: SyncplayJSON], _ key: String, command: String, kind: String,
                                    _ read: (SyncplayJSON) -> T?) throws(SyncplayProtocolError) -> T? {
        guard let value = fields[key], !value.isNull else { return nil }
        guard let typed = read(value) else { throw .badField(command: command, field: key, problem: "is not \(kind)") }
        return typed
    }

    static func hello(_ body: SyncplayJSON) throws(SyncplayProtocolError) -> SyncplayHello {
        let fields = try object(body, command: "Hello", field: "body")
        let room = try optional(fields, "room", command: "Hello", kind: "an object") { $0.object }
        return SyncplayHello(
            username: try optional(fields, "username", command: "Hello", kind: "text") { $0.string },
            password: try optional(fields, "password", command: "Hello", kind: "text") { $0.string },
            room: try room.flatMap { room throws(SyncplayProtocolError) in
                try optional(room, "name", command: "Hello", kind: "text") { $0.string }
            },
            version: try optional(fields, "version", command: "Hello", kind: "text") { $0.string },
            realVersion: try optional(fields, "realversion", command: "Hello", kind: "text") { $0.string },
            motd: try optional(fields, "motd", command: "Hello", kind: "text") { $0.string },
            features: fields["features"]?.object ?? [:])
    }

    static func file(_ value: SyncplayJSON, command: String) throws(SyncplayProtocolError) -> SyncplayFile? {
        // Syncplay lists "no file" as {} (or null).
        guard let fields = value.object, !fields.isEmpty else {
            if value.isNull || value.object != nil { return nil }
            throw .badField(command: command, field: "file", problem: "is not an object")
        }
        let name = try optional(fields, "name", command: command, kind: "text") { $0.string } ?? ""
        let duration = try optional(fields, "duration", command: command, kind: "a number") { $0.double } ?? 0
        let size: SyncplayFile.Size
        switch fields["size"] {
        case .number(let n)?: size = .bytes(n.isFinite && abs(n) < 9.0e18 ? Int64(n) : 0)
        case .string(let s)?: size = .hashed(s)
        case nil, .null?: size = .bytes(0)
        default: throw .badField(command: command, field: "size", problem: "is neither a number nor text")
        }
        return SyncplayFile(name: name, duration: duration, size: size)
    }

    static func settings(_ body: SyncplayJSON) throws(SyncplayProtocolError) -> [SyncplaySetting] {
        let fields = try object(body, command: "Set", field: "body")
        var settings: [SyncplaySetting] = []
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "room":
                let room = try object(value, command: "Set", field: "room")
                settings.append(.room(name: try optional(room, "name", command: "Set room", kind: "text") { $0.string } ?? ""))
            case "user":
                let users = try object(value, command: "Set", field: "user")
                for (name, info) in users.sorted(by: { $0.key < $1.key }) {
                    let info = try object(info, command: "Set user", field: name)
                    let room = try optional(info, "room", command: "Set user", kind: "an object") { $0.object }
                    let event = try optional(info, "event", command: "Set user", kind: "an object") { $0.object }
                    let kind: SyncplayUserEvent.Event = event?["joined"] != nil ? .joined : event?["left"] != nil ? .left : .changed
                    settings.append(.user(SyncplayUserEvent(
                        username: name, room: room?["name"]?.string,
                        file: try info["file"].flatMap { file throws(SyncplayProtocolError) in try self.file(file, command: "Set user") },
                        event: kind)))
                }
            case "ready":
                let ready = try object(value, command: "Set", field: "ready")
                settings.append(.ready(
                    username: try optional(ready, "username", command: "Set ready", kind: "text") { $0.string },
                    isReady: try optional(ready, "isReady", command: "Set ready", kind: "true or false") { $0.bool },
                    manuallyInitiated: try optional(ready, "manuallyInitiated", command: "Set ready", kind: "true or false") { $0.bool } ?? false))
            case "file":
                if let file = try file(value, command: "Set") { settings.append(.file(file)) }
            case "playlistIndex":
                let index = try object(value, command: "Set", field: "playlistIndex")
                settings.append(.playlistIndex(
                    user: index["user"]?.string,
                    index: try optional(index, "index", command: "Set playlistIndex", kind: "an integer") { $0.int }))
            case "playlistChange":
                let change = try object(value, command: "Set", field: "playlistChange")
                let files = try optional(change, "files", command: "Set playlistChange", kind: "a list") { value -> [String]? in
                    guard case .array(let items) = value else { return nil }
                    let names = items.compactMap(\.string)
                    return names.count == items.count ? names : nil
                } ?? []
                settings.append(.playlistChange(user: change["user"]?.string, files: files))
            case "features":
                let features = try object(value, command: "Set", field: "features")
                settings.append(.features(username: features["username"]?.string, features: features["features"]?.object ?? features))
            default:
                settings.append(.other(key))
            }
        }
        return settings
    }

    static func userList(_ body: SyncplayJSON) throws(SyncplayProtocolError) -> SyncplayUserList {
        let rooms = try object(body, command: "List", field: "body")
        var entries: [SyncplayUserList.Entry] = []
        for (room, users) in rooms.sorted(by: { $0.key < $1.key }) {
            let users = try object(users, command: "List", field: room)
            for (name, info) in users.sorted(by: { $0.key < $1.key }) {
                let info = try object(info, command: "List", field: name)
                entries.append(SyncplayUserList.Entry(
                    room: room, username: name,
                    file: try info["file"].flatMap { file throws(SyncplayProtocolError) in try self.file(file, command: "List") },
                    isReady: info["isReady"]?.bool, isController: info["controller"]?.bool ?? false))
            }
        }
        return SyncplayUserList(entries: entries)
    }

    static func state(_ body: SyncplayJSON) throws(SyncplayProtocolError) -> SyncplayState {
        let fields = try object(body, command: "State", field: "body")
        var state = SyncplayState()
        if let playstate = try optional(fields, "playstate", command: "State", kind: "an object", { $0.object }) {
            state.playstate = SyncplayState.Playstate(
                position: try optional(playstate, "position", command: "State playstate", kind: "a number") { $0.double } ?? 0,
                paused: try optional(playstate, "paused", command: "State playstate", kind: "true or false") { $0.bool },
                doSeek: try optional(playstate, "doSeek", command: "State playstate", kind: "true or false") { $0.bool },
                setBy: try optional(playstate, "setBy", command: "State playstate", kind: "text") { $0.string })
        }
        if let ping = try optional(fields, "ping", command: "State", kind: "an object", { $0.object }) {
            func number(_ key: String) throws(SyncplayProtocolError) -> Double? {
                try optional(ping, key, command: "State ping", kind: "a number") { $0.double }
            }
            state.ping = SyncplayState.Ping(
                latencyCalculation: try number("latencyCalculation"),
                clientLatencyCalculation: try number("clientLatencyCalculation"),
                serverRtt: try number("serverRtt"), clientRtt: try number("clientRtt"))
        }
        if let ignoring = try optional(fields, "ignoringOnTheFly", command: "State", kind: "an object", { $0.object }) {
            state.ignoringOnTheFly = SyncplayState.Ignoring(
                server: try optional(ignoring, "server", command: "State ignoringOnTheFly", kind: "an integer") { $0.int },
                client: try optional(ignoring, "client", command: "State ignoringOnTheFly", kind: "an integer") { $0.int })
        }
        return state
    }
}
