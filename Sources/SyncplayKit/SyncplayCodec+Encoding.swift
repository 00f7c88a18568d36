import Foundation

extension SyncplayCodec {
    /// One line of JSON for `message`, with the terminator.
    public static func encodeLine(_ message: SyncplayMessage) -> String {
        encode(message) + terminator
    }

    /// One line of JSON for `message`, without the terminator. Keys are sorted, so equal messages
    /// give equal lines.
    public static func encode(_ message: SyncplayMessage) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSON value tree cannot fail (non-finite numbers are written as 0).
        let data = (try? encoder.encode(json(message))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The JSON object of one command.
    public static func json(_ message: SyncplayMessage) -> SyncplayJSON {
        switch message {
        case .hello(let hello): .object(["Hello": json(hello)])
        case .set(let settings):
            .object(["Set": .object(Dictionary(settings.compactMap(json), uniquingKeysWith: { _, last in last }))])
        case .list(let list): .object(["List": list.map(json) ?? .null])
        case .state(let state): .object(["State": json(state)])
        case .chat(let chat):
            .object(["Chat": chat.username.map { .object(["username": .string($0), "message": .string(chat.message)]) }
                ?? .string(chat.message)])
        case .error(let message): .object(["Error": .object(["message": .string(message)])])
        case .tls(let answer): .object(["TLS": .object(["startTLS": .string(answer)])])
        case .unknown(let name): .object([name: .null])
        }
    }

    static func json(_ hello: SyncplayHello) -> SyncplayJSON {
        var fields: [String: SyncplayJSON] = [:]
        if let v = hello.username { fields["username"] = .string(v) }
        if let v = hello.password { fields["password"] = .string(v) }
        if let v = hello.room { fields["room"] = .object(["name": .string(v)]) }
        if let v = hello.version { fields["version"] = .string(v) }
        if let v = hello.realVersion { fields["realversion"] = .string(v) }
        if let v = hello.motd { fields["motd"] = .string(v) }
        if !hello.features.isEmpty { fields["features"] = .object(hello.features) }
        return .object(fields)
    }

    static func json(_ file: SyncplayFile?) -> SyncplayJSON {
        guard let file else { return .object([:]) }
        let size: SyncplayJSON = switch file.size {
        case .bytes(let n): .number(Double(n))
        case .hashed(let s): .string(s)
        }
        return .object(["name": .string(file.name), "duration": .number(file.duration), "size": size])
    }

    static func json(_ setting: SyncplaySetting) -> (String, SyncplayJSON)? {
        switch setting {
        case .room(let name): ("room", .object(["name": .string(name)]))
        case .user(let user):
            ("user", .object([user.username: .object(
                ["room": user.room.map { .object(["name": .string($0)]) }, "file": user.file.map { json($0) },
                 "event": user.event == .joined ? .object(["joined": .bool(true)])
                     : user.event == .left ? .object(["left": .bool(true)]) : nil].compactMapValues { $0 })]))
        case .ready(let username, let isReady, let manuallyInitiated):
            ("ready", .object(["username": username.map(SyncplayJSON.string), "isReady": .some(isReady.map(SyncplayJSON.bool) ?? .null),
                               "manuallyInitiated": .bool(manuallyInitiated)].compactMapValues { $0 }))
        case .file(let file): ("file", json(file))
        case .playlistIndex(let user, let index):
            // Syncplay's client reads "user" unconditionally: null, never absent.
            ("playlistIndex", .object(["user": user.map(SyncplayJSON.string) ?? .null, "index": index.map { .number(Double($0)) } ?? .null]))
        case .playlistChange(let user, let files):
            ("playlistChange", .object(["user": user.map(SyncplayJSON.string) ?? .null, "files": .array(files.map(SyncplayJSON.string))]))
        case .features(let username, let features):
            ("features", username.map { .object(["username": .string($0), "features": .object(features)]) } ?? .object(features))
        case .other: nil
        }
    }

    static func json(_ list: SyncplayUserList) -> SyncplayJSON {
        var rooms: [String: [String: SyncplayJSON]] = [:]
        for entry in list.entries {
            var fields: [String: SyncplayJSON] = ["position": .number(0), "file": json(entry.file), "controller": .bool(entry.isController)]
            fields["isReady"] = entry.isReady.map(SyncplayJSON.bool) ?? .null
            rooms[entry.room, default: [:]][entry.username] = .object(fields)
        }
        return .object(rooms.mapValues { .object($0) })
    }

    static func json(_ state: SyncplayState) -> SyncplayJSON {
        var fields: [String: SyncplayJSON] = [:]
        if let p = state.playstate {
            var play: [String: SyncplayJSON] = ["position": .number(p.position)]
            if let v = p.paused { play["paused"] = .bool(v) }
            if let v = p.doSeek { play["doSeek"] = .bool(v) }
            if let v = p.setBy { play["setBy"] = .string(v) }
            fields["playstate"] = .object(play)
        }
        if let ping = state.ping {
            fields["ping"] = .object([
                "latencyCalculation": ping.latencyCalculation.map(SyncplayJSON.number),
                "clientLatencyCalculation": ping.clientLatencyCalculation.map(SyncplayJSON.number),
                "serverRtt": ping.serverRtt.map(SyncplayJSON.number),
                "clientRtt": ping.clientRtt.map(SyncplayJSON.number),
            ].compactMapValues { $0 })
        }
        if let ignoring = state.ignoringOnTheFly {
            fields["ignoringOnTheFly"] = .object([
                "server": ignoring.server.map { .number(Double($0)) },
                "client": ignoring.client.map { .number(Double($0)) },
            ].compactMapValues { $0 })
        }
        return .object(fields)
    }
}
