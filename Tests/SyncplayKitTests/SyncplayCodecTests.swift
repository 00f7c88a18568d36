import Testing
@testable import SyncplayKit

/// Lines recorded from Debian's syncplay-server 1.6.9.
enum RecordedLines {
    static let hello = #"{"Hello": {"username": "bob", "room": {"name": "r1"}, "version": "1.6.9", "realversion": "1.6.9", "motd": "", "features": {"isolateRooms": false, "readiness": true, "managedRooms": true, "chat": true, "maxChatMessageLength": 150, "maxUsernameLength": 150, "maxRoomNameLength": 35, "maxFilenameLength": 250}}}"#
    static let firstState = #"{"State": {"ping": {"latencyCalculation": 1795377534.8879619, "serverRtt": 0}, "playstate": {"position": 0, "paused": true, "doSeek": false, "setBy": null}}}"#
    static let state = #"{"State": {"ping": {"latencyCalculation": 1795377537.8918395, "serverRtt": 0.004079103469848633, "clientLatencyCalculation": 1795377537.8881927}, "playstate": {"position": 1.0, "paused": true, "doSeek": false, "setBy": "bob"}}}"#
    static let ready = #"{"Set": {"ready": {"username": "bob", "isReady": null, "manuallyInitiated": false}}}"#
    static let userFile = #"{"Set": {"user": {"bob": {"room": {"name": "r1"}, "file": {"name": "party.mp4", "duration": 60.0, "size": 1234}}}}}"#
    static let list = #"{"List": {"r1": {"bob": {"position": 0, "file": {"name": "party.mp4", "duration": 60.0, "size": 1234}, "controller": false, "isReady": null, "features": {"chat": true, "readiness": true}}}}}"#
    static let chat = #"{"Chat": {"message": "hi there", "username": "bob"}}"#
    static let tlsFalse = #"{"TLS": {"startTLS": "false"}}"#
}

@Suite struct SyncplayCodecTests {
    @Test func decodesTheServersHello() throws {
        let messages = try SyncplayCodec.decode(RecordedLines.hello)
        guard case .hello(let hello) = messages.first else { Issue.record("not a Hello: \(messages)"); return }
        #expect(hello.username == "bob")
        #expect(hello.room == "r1")
        #expect(hello.effectiveVersion == "1.6.9")
        #expect(hello.motd == "")
        #expect(hello.features["maxChatMessageLength"]?.int == 150)
    }

    @Test func decodesStatesWithPingAndPlaystate() throws {
        let first = try SyncplayCodec.decode(RecordedLines.firstState)
        #expect(first == [.state(SyncplayState(
            playstate: .init(position: 0, paused: true, doSeek: false, setBy: nil),
            ping: .init(latencyCalculation: 1795377534.8879619, serverRtt: 0)))])
        let later = try SyncplayCodec.decode(RecordedLines.state)
        guard case .state(let state) = later.first else { Issue.record("not a State"); return }
        #expect(state.ping?.clientLatencyCalculation == 1795377537.8881927)
        #expect(state.playstate?.setBy == "bob")
        #expect(state.playstate?.position == 1.0)
    }

    @Test func decodesSettingsListAndChat() throws {
        #expect(try SyncplayCodec.decode(RecordedLines.ready) == [.set([.ready(username: "bob", isReady: nil, manuallyInitiated: false)])])
        let file = SyncplayFile(name: "party.mp4", duration: 60, size: .bytes(1234))
        #expect(try SyncplayCodec.decode(RecordedLines.userFile)
            == [.set([.user(SyncplayUserEvent(username: "bob", room: "r1", file: file, event: .changed))])])
        #expect(try SyncplayCodec.decode(RecordedLines.list)
            == [.list(SyncplayUserList(entries: [.init(room: "r1", username: "bob", file: file, isReady: nil)]))])
        #expect(try SyncplayCodec.decode(RecordedLines.chat) == [.chat(SyncplayChat(username: "bob", message: "hi there"))])
        #expect(try SyncplayCodec.decode(RecordedLines.tlsFalse) == [.tls(startTLS: "false")])
        let joined = #"{"Set": {"user": {"amy": {"room": {"name": "r1"}, "event": {"joined": true, "version": "1.6.9"}}}}}"#
        #expect(try SyncplayCodec.decode(joined) == [.set([.user(SyncplayUserEvent(username: "amy", room: "r1", file: nil, event: .joined))])])
    }

    @Test func unknownCommandsAndFieldsAreTolerated() throws {
        let line = #"{"Frobnicate": {"x": 1}, "State": {"ping": {"latencyCalculation": 5, "future": [1, 2]}, "novel": true}}"#
        let messages = try SyncplayCodec.decode(line)
        #expect(messages == [.unknown("Frobnicate"), .state(SyncplayState(ping: .init(latencyCalculation: 5)))])
        #expect(try SyncplayCodec.decode(#"{"Set": {"controllerAuth": {"room": "+r:AB"}}}"#) == [.set([.other("controllerAuth")])])
        #expect(try SyncplayCodec.decode("   ").isEmpty)
    }

    @Test func garbageIsRefusedWithAClearError() {
        #expect(throws: SyncplayProtocolError.notJSON(excerpt: "hello there")) { try SyncplayCodec.decode("hello there") }
        #expect(throws: SyncplayProtocolError.notAnObject(excerpt: "[1,2]")) { try SyncplayCodec.decode("[1,2]") }
        #expect(throws: SyncplayProtocolError.notUTF8) { try SyncplayCodec.decode([0x7B, 0xFF, 0xFE, 0x7D]) }
        #expect(throws: SyncplayProtocolError.badField(command: "State playstate", field: "paused", problem: "is not true or false")) {
            try SyncplayCodec.decode(#"{"State": {"playstate": {"position": 1, "paused": "yes"}}}"#)
        }
        #expect(throws: SyncplayProtocolError.badField(command: "Hello", field: "body", problem: "is not an object")) {
            try SyncplayCodec.decode(#"{"Hello": 7}"#)
        }
        let long = String(repeating: "x", count: SyncplayCodec.maxLineBytes + 1)
        #expect(throws: SyncplayProtocolError.lineTooLong(bytes: long.utf8.count, limit: SyncplayCodec.maxLineBytes)) {
            try SyncplayCodec.decode(long)
        }
        let excerpt = SyncplayProtocolError.excerpt(String(repeating: "y", count: 500))
        #expect(excerpt.count == SyncplayProtocolError.excerptLength + 1)
    }

    @Test func encodesWhatTheServerReads() throws {
        let hello = SyncplayHello(username: "tandem", password: "abc", room: "r1", version: "1.2.255", realVersion: "1.6.9",
                                  features: ["chat": .bool(true)])
        #expect(SyncplayCodec.encode(.hello(hello))
            == #"{"Hello":{"features":{"chat":true},"password":"abc","realversion":"1.6.9","room":{"name":"r1"},"username":"tandem","version":"1.2.255"}}"#)
        #expect(SyncplayCodec.encode(.chat(SyncplayChat(message: "hi"))) == #"{"Chat":"hi"}"#)
        #expect(SyncplayCodec.encode(.list(nil)) == #"{"List":null}"#)
        // Syncplay's client reads the playlist's "user" unconditionally.
        #expect(SyncplayCodec.encode(.set([.playlistChange(user: nil, files: [])])) == #"{"Set":{"playlistChange":{"files":[],"user":null}}}"#)
        #expect(SyncplayCodec.encodeLine(.tls(startTLS: "send")) == "{\"TLS\":{\"startTLS\":\"send\"}}\r\n")
        #expect(SyncplayCodec.encode(.set([.ready(username: nil, isReady: true, manuallyInitiated: false)]))
            == #"{"Set":{"ready":{"isReady":true,"manuallyInitiated":false}}}"#)
        #expect(SyncplayCodec.encode(.set([.file(SyncplayFile(name: "a.mkv", duration: 1.5, size: .hashed("0123456789ab")))]))
            == #"{"Set":{"file":{"duration":1.5,"name":"a.mkv","size":"0123456789ab"}}}"#)
    }

    @Test func everyMessageSurvivesARoundTrip() throws {
        let file = SyncplayFile(name: "ä b.mkv", duration: 12.25, size: .bytes(99))
        let messages: [SyncplayMessage] = [
            .hello(SyncplayHello(username: "u", room: "r", version: "1.6.9", motd: "hi\nthere", features: ["x": .number(1)])),
            .set([.room(name: "r2")]),
            .set([.user(SyncplayUserEvent(username: "amy", room: "r", file: file, event: .changed))]),
            .set([.user(SyncplayUserEvent(username: "amy", room: "r", file: nil, event: .left))]),
            .set([.playlistChange(user: "amy", files: ["a", "b"])]),
            .set([.playlistIndex(user: "amy", index: 1)]),
            .list(SyncplayUserList(entries: [.init(room: "r", username: "amy", file: file, isReady: true)])),
            .state(SyncplayState(playstate: .init(position: 3.5, paused: false, doSeek: true, setBy: "amy"),
                                 ping: .init(latencyCalculation: 1e9 + 0.123456, clientLatencyCalculation: 42.5, serverRtt: 0.01),
                                 ignoringOnTheFly: .init(server: 1, client: 2))),
            .chat(SyncplayChat(username: "amy", message: "\"quoted\" \u{1F600}")),
            .error("nope"),
            .tls(startTLS: "true"),
        ]
        for message in messages {
            #expect(try SyncplayCodec.decode(SyncplayCodec.encode(message)) == [message])
        }
    }
}
