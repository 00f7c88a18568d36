import Testing
@testable import SyncplayKit

/// A core logged into room "r1" as "tandem", with helpers to pick actions apart.
struct CoreHarness {
    var core: SyncplayClientCore
    var now = 1000.0

    init(useTLS: Bool = false, password: String? = nil, nameMode: SyncplayPrivacy = .sendRaw) {
        core = SyncplayClientCore(configuration: .init(name: "tandem", room: "r1", password: password, useTLS: useTLS, nameMode: nameMode))
    }

    static func loggedIn(file: Bool = true) -> CoreHarness {
        var h = CoreHarness()
        _ = h.core.connected(now: h.now)
        _ = h.core.receive(.hello(SyncplayHello(username: "tandem", room: "r1", version: "1.6.9")), now: h.now, player: nil)
        if file { _ = h.core.fileOpened(name: "party.mp4", duration: 60, size: 1234, now: h.now, player: nil) }
        return h
    }

    /// A server State at `now`, with a ping that echoes a client stamp `rtt` seconds old.
    mutating func state(position: Double, paused: Bool, doSeek: Bool = false, setBy: String? = "amy",
                        ignoring: SyncplayState.Ignoring? = nil, player: SyncplayClientCore.PlayerSnapshot?) -> [SyncplayClientCore.Action] {
        core.receive(.state(SyncplayState(playstate: .init(position: position, paused: paused, doSeek: doSeek, setBy: setBy),
                                          ping: .init(latencyCalculation: 777.5, serverRtt: 0),
                                          ignoringOnTheFly: ignoring)), now: now, player: player)
    }

    static func sent(_ actions: [SyncplayClientCore.Action]) -> [SyncplayMessage] {
        actions.compactMap { if case .send(let m) = $0 { m } else { nil } }
    }
    static func shows(_ actions: [SyncplayClientCore.Action]) -> [SyncplayShow] {
        actions.compactMap { if case .show(let s) = $0 { s } else { nil } }
    }
    static func notices(_ actions: [SyncplayClientCore.Action]) -> [SyncplayNotice] {
        actions.compactMap { if case .notice(let n) = $0 { n } else { nil } }
    }
    static func answers(_ actions: [SyncplayClientCore.Action]) -> [SyncplayState] {
        sent(actions).compactMap { if case .state(let s) = $0 { s } else { nil } }
    }
    static func corrections(_ actions: [SyncplayClientCore.Action]) -> [Double] {
        actions.compactMap { if case .setCorrection(let c) = $0 { c } else { nil } }
    }
}

@Suite struct SyncplayHandshakeTests {
    @Test func plainHelloCarriesNameRoomVersionAndPasswordDigest() {
        var h = CoreHarness(password: "secret")
        let actions = h.core.connected(now: h.now)
        guard case .send(.hello(let hello)) = actions.first else { Issue.record("no Hello: \(actions)"); return }
        #expect(hello.username == "tandem")
        #expect(hello.room == "r1")
        #expect(hello.password == "5ebe2294ecd0e0f08eab7690d2a6ee69")
        #expect(hello.version == "1.2.255")
        #expect(hello.realVersion == "1.6.9")
        #expect(h.core.phase == .awaitingHello)
    }

    @Test func startTLSWhenTheServerAgreesHelloInPlainWhenNot() {
        var h = CoreHarness(useTLS: true)
        #expect(h.core.connected(now: h.now) == [.send(.tls(startTLS: "send"))])
        #expect(h.core.receive(.tls(startTLS: "true"), now: h.now, player: nil) == [.startTLS])
        #expect(CoreHarness.sent(h.core.tlsEstablished(now: h.now)).count == 1)
        #expect(h.core.phase == .awaitingHello)

        var plain = CoreHarness(useTLS: true)
        _ = plain.core.connected(now: plain.now)
        let actions = plain.core.receive(.tls(startTLS: "false"), now: plain.now, player: nil)
        #expect(CoreHarness.notices(actions).count == 1)
        guard case .send(.hello) = actions.last else { Issue.record("no Hello after a refusal"); return }

        var old = CoreHarness(useTLS: true)
        _ = old.core.connected(now: old.now)
        #expect(old.core.receive(.error("Unknown command {'startTLS': 'send'}"), now: old.now, player: nil) == [.retryWithoutTLS])
    }

    @Test func welcomeTakesTheServersNameAndAnnouncesReadinessFileAndAsksTheList() {
        var h = CoreHarness()
        _ = h.core.connected(now: h.now)
        _ = h.core.fileOpened(name: "party.mp4", duration: 60, size: 1234, now: h.now, player: nil)
        let actions = h.core.receive(.hello(SyncplayHello(username: "tandem_", room: "r1", version: "1.6.9", motd: "be nice")), now: h.now, player: nil)
        #expect(h.core.me == "tandem_")
        #expect(h.core.phase == .inRoom)
        #expect(CoreHarness.notices(actions) == [.connected(room: "r1", name: "tandem_", serverVersion: "1.6.9", motd: "be nice")])
        #expect(CoreHarness.sent(actions) == [
            .set([.ready(username: nil, isReady: true, manuallyInitiated: false)]),
            .set([.file(SyncplayFile(name: "party.mp4", duration: 60, size: .bytes(1234)))]),
            .list(nil),
        ])
    }

    @Test func aHelloWithoutRoomOrAnErrorEndsTheSession() {
        var h = CoreHarness()
        _ = h.core.connected(now: h.now)
        let actions = h.core.receive(.hello(SyncplayHello(username: "tandem", version: "1.6.9")), now: h.now, player: nil)
        #expect(actions == [.fail("the server's Hello lacks a username, room or version")])
        #expect(h.core.phase == .closed)

        var wrong = CoreHarness()
        _ = wrong.core.connected(now: wrong.now)
        #expect(wrong.core.receive(.error("Wrong password supplied"), now: wrong.now, player: nil)
            == [.fail("the server said: Wrong password supplied")])
        #expect(wrong.core.receive(.chat(SyncplayChat(message: "late")), now: wrong.now, player: nil).isEmpty)
    }

    @Test func silenceEndsTheSession() {
        var h = CoreHarness()
        _ = h.core.connected(now: h.now)
        #expect(h.core.tick(now: h.now + SyncplayClientCore.helloTimeout - 0.1).isEmpty)
        #expect(h.core.tick(now: h.now + SyncplayClientCore.helloTimeout + 0.1).count == 1)

        var logged = CoreHarness.loggedIn()
        #expect(logged.core.tick(now: logged.now + SyncplayClientCore.protocolTimeout - 0.1).isEmpty)
        logged.now += 10
        _ = logged.state(position: 0, paused: true, player: nil)
        #expect(logged.core.tick(now: logged.now + SyncplayClientCore.protocolTimeout - 0.1).isEmpty)
        // As Syncplay's client: a server silent past the timeout is dropped and connected to again.
        guard case .reconnect = logged.core.tick(now: logged.now + SyncplayClientCore.protocolTimeout + 0.1).first else {
            Issue.record("no reconnect after the protocol timeout"); return
        }
    }

    @Test func aCloseSaysWhatWasUnderWay() {
        var tls = CoreHarness(useTLS: true)
        _ = tls.core.connected(now: tls.now)
        _ = tls.core.receive(.tls(startTLS: "true"), now: tls.now, player: nil)
        #expect(tls.core.connectionClosed(cause: "handshake failed") == [.fail("the connection closed while starting TLS: handshake failed")])
        var logged = CoreHarness.loggedIn()
        #expect(logged.core.connectionClosed() == [.reconnect("the server closed the connection")])
        #expect(logged.core.connectionClosed().isEmpty)
    }

    @Test func aBadLineEndsTheSessionNamingIt() {
        var h = CoreHarness.loggedIn()
        #expect(h.core.protocolError(.notJSON(excerpt: "garbage")) == [.fail("the server sent a line that is not JSON: garbage")])
        #expect(h.core.protocolError(.notUTF8).isEmpty)
    }
}
