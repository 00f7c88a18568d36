extension SyncplayClientCore {
    /// A message from the server arrived at `now`; `player` is the player as it is now (nil
    /// before a file is open).
    public mutating func receive(_ message: SyncplayMessage, now: Double, player: PlayerSnapshot?) -> [Action] {
        guard phase != .closed else { return [] }
        switch message {
        case .tls(let answer):
            guard phase == .awaitingTLS else { return [] }
            if answer == "true" { return [.startTLS] }
            phase = .awaitingHello
            return [.notice(.note("the server offers no TLS: the connection is not encrypted")), .send(.hello(hello))]
        case .error(let text):
            // A server older than STARTTLS calls the TLS command unknown and drops us.
            if phase == .awaitingTLS, text.contains("startTLS") {
                phase = .closed
                return [.retryWithoutTLS]
            }
            return fail("the server said: \(text)")
        case .hello(let hello):
            return welcomed(hello, now: now)
        case .state(let state):
            guard phase == .inRoom else { return fail("the server sent a State before its Hello") }
            return received(state, now: now, player: player)
        case .set(let settings):
            // The server sends the room's readiness and playlist before its Hello.
            guard phase == .inRoom || phase == .awaitingHello else { return [] }
            return settings.flatMap { apply($0) }
        case .list(let list):
            guard phase == .inRoom, let list else { return [] }
            users = Dictionary(list.entries.map { ($0.username, $0) }, uniquingKeysWith: { _, last in last })
            let here = list.entries.filter { $0.room == roomName }
            return [.notice(.users(here))] + here.compactMap { entry in entry.file.flatMap { wantFile($0.name) } }
        case .chat(let chat):
            return [.notice(.chat(from: chat.username ?? "?", text: chat.message))]
        case .unknown:
            return []
        }
    }

    private mutating func welcomed(_ hello: SyncplayHello, now: Double) -> [Action] {
        guard phase == .awaitingHello else { return [] }
        guard let name = hello.username, !name.isEmpty, let room = hello.room, !room.isEmpty,
              let version = hello.effectiveVersion else {
            return fail("the server's Hello lacks a username, room or version")
        }
        phase = .inRoom
        hasBeenInRoom = true
        me = name
        roomName = room
        lastStateAt = now
        var actions: [Action] = [
            .notice(.connected(room: room, name: name, serverVersion: version, motd: hello.motd)),
            .send(.set([.ready(username: nil, isReady: file != nil, manuallyInitiated: false)])),
        ]
        if let file { actions.append(.send(.set([.file(file)]))) }
        actions.append(.send(.list(nil)))
        return actions
    }

    private mutating func apply(_ setting: SyncplaySetting) -> [Action] {
        switch setting {
        case .room(let name):
            if !name.isEmpty { roomName = name }
            return []
        case .user(let user):
            guard user.username != me else { return [] }
            let wasHere = users[user.username]?.room == roomName
            switch user.event {
            case .joined:
                users[user.username] = .init(room: user.room ?? roomName, username: user.username, file: user.file)
                return user.room == nil || user.room == roomName ? [.notice(.userJoined(user.username))] : []
            case .left:
                users[user.username] = nil
                return wasHere ? [.notice(.userLeft(user.username))] : []
            case .changed:
                var entry = users[user.username] ?? .init(room: user.room ?? roomName, username: user.username)
                if let room = user.room { entry.room = room }
                let newFile = user.file != nil && user.file != entry.file
                if let file = user.file { entry.file = file }
                users[user.username] = entry
                let here = entry.room == roomName
                var actions: [Action] = []
                if wasHere, !here { actions.append(.notice(.userLeft(user.username))) }
                if !wasHere, here { actions.append(.notice(.userJoined(user.username))) }
                if here, newFile, let file = entry.file {
                    actions.append(.notice(.userFile(user.username, file)))
                    actions += wantFile(file.name).map { [$0] } ?? []
                }
                return actions
            }
        case .ready(let username, let isReady, _):
            guard let username, let isReady else { return [] }
            let before = users[username]?.isReady
            users[username, default: .init(room: roomName, username: username)].isReady = isReady
            return username == me || before == isReady ? [] : [.notice(.ready(username, isReady))]
        case .playlistChange(let user, let files):
            playlist = files
            guard !files.isEmpty else { return [] }
            var actions: [Action] = [.notice(.playlist(by: user, files: files))]
            if let name = files[safe: playlistIndex ?? 0], let look = wantFile(name) { actions.append(look) }
            return actions
        case .playlistIndex(_, let index):
            playlistIndex = index
            if let index, let name = playlist[safe: index], let look = wantFile(name) { return [look] }
            return []
        case .file, .features, .other:
            return []
        }
    }

    /// Asks the driver to look for `name` once, while we have no file.
    mutating func wantFile(_ name: String) -> Action? {
        guard file == nil, !name.isEmpty, name != SyncplayPrivacy.hiddenFilename, !lookedFor.contains(name) else { return nil }
        lookedFor.insert(name)
        return .lookForFile(name)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
