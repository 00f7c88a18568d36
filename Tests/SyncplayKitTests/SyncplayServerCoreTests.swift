import Testing
@testable import SyncplayKit

@Suite struct SyncplayServerCoreTests {
    static let digest = SyncplayPrivacy.passwordDigest("party-key")
    static let room = SyncplayServerCore.Room(position: 12, paused: true, setBy: "host")

    static func hello(password: String? = digest) -> SyncplayMessage {
        .hello(SyncplayHello(username: "amy", password: password, room: "party1", version: "1.2.255", realVersion: "1.6.9"))
    }

    static func joined() -> SyncplayServerCore {
        var core = SyncplayServerCore(now: 0)
        _ = core.receive(hello(), now: 0, room: nil)
        _ = core.welcome(name: "amy (Syncplay)", room: "party1", now: 0, state: room)
        return core
    }

    static func states(_ actions: [SyncplayServerCore.Action]) -> [SyncplayState] {
        actions.compactMap { if case .send(.state(let s)) = $0 { s } else { nil } }
    }

    @Test func startTLSIsDeclinedAndThePasswordHandedOver() {
        var core = SyncplayServerCore(now: 0)
        #expect(core.receive(.tls(startTLS: "send"), now: 0, room: nil) == [.send(.tls(startTLS: "false"))])
        #expect(core.receive(Self.hello(), now: 0, room: nil) == [.join(name: "amy", room: "party1", password: Self.digest)])
        #expect(core.deny("Wrong password supplied") == [.send(.error("Wrong password supplied")), .close("Wrong password supplied")])
        #expect(core.phase == .closed)

        var early = SyncplayServerCore(now: 0)
        #expect(early.receive(.chat(SyncplayChat(message: "hi")), now: 0, room: nil).first == .send(.error("Please login first")))
    }

    @Test func startTLSIsAgreedOnceBeforeTheHelloWhenOffered() {
        var core = SyncplayServerCore(offersTLS: true, now: 0)
        #expect(core.receive(.tls(startTLS: "send"), now: 0, room: nil) == [.send(.tls(startTLS: "true")), .startTLS])
        #expect(core.tlsStarted)
        // Asked again (inside TLS), or after the hello: no second handshake.
        #expect(core.receive(.tls(startTLS: "send"), now: 0, room: nil) == [.send(.tls(startTLS: "false"))])
        var late = SyncplayServerCore(offersTLS: true, now: 0)
        _ = late.receive(Self.hello(), now: 0, room: nil)
        #expect(late.receive(.tls(startTLS: "send"), now: 0, room: nil) == [.send(.tls(startTLS: "false"))])
        #expect(!late.tlsStarted)
    }

    /// The gateway flake of issue #13: Syncplay 1.6.9 ignores a jump that comes within 1 s of
    /// opening its file and then says `doSeek` where its player stayed (in its answer to that
    /// jump, or when its real position replaces the 0 it assumed while opening). That moves nobody;
    /// the client is sent the room's position again. A seek that moves its player is a request.
    @Test func aDoSeekWhereThePlayerStayedMovesNobodyAndIsAnsweredWithTheRoom() {
        var core = Self.joined()
        let start = SyncplayServerCore.Room(position: 0, paused: true, setBy: "Hana")
        _ = core.receive(.state(SyncplayState(playstate: .init(position: 0, paused: true), ignoringOnTheFly: .init(server: 1))), now: 0.1,
                         room: start)
        let playing = SyncplayServerCore.Room(position: 20, paused: false, setBy: "Hana")
        _ = core.force(playing, doSeek: true, now: 1)
        let answer = SyncplayState(playstate: .init(position: 0, paused: false, doSeek: true), ignoringOnTheFly: .init(server: 1, client: 1))
        #expect(core.receive(.state(answer), now: 1.1, room: playing).isEmpty)
        #expect(Self.states(core.tick(now: 1.2, room: playing)).first?.playstate?.doSeek != true)
        // Its real position replacing the assumed 0 a second later: no seek either.
        let replaced = SyncplayState(playstate: .init(position: 1.05, paused: false, doSeek: true))
        #expect(core.receive(.state(replaced), now: 2.1, room: .init(position: 21.1, paused: false, setBy: "Hana")).isEmpty)
        let later = SyncplayServerCore.Room(position: 22.6, paused: false, setBy: "Hana")
        let again = Self.states(core.tick(now: 2.1 + SyncplayServerCore.rejumpDelay, room: later)).first
        #expect(again?.playstate == .init(position: 22.6, paused: false, doSeek: true, setBy: "Hana"))
        // Once it has taken the jump, a seek of its user's (its player moved) is a request.
        _ = core.receive(.state(SyncplayState(playstate: .init(position: 22.7, paused: false), ignoringOnTheFly: .init(server: 1))), now: 3.6,
                         room: later)
        let seek = core.receive(.state(SyncplayState(playstate: .init(position: 40, paused: false, doSeek: true))), now: 4, room: later)
        #expect(seek.count == 1)
        if case .request(.seek(let to))? = seek.first { #expect(abs(to - 40) < 1) } else { Issue.record("not a seek request: \(seek)") }
    }

    /// The second flake of the gateway's follow test: mpv seeks just as the party's pause (a forced
    /// state) is on its way; the report crosses it and predates it. Syncplay's server drops it, and
    /// the client, whose player already is there, does not report it again. Its answer to our state
    /// saying its player stayed there makes it a seek request.
    @Test func aSeekThatCrossedOurForcedStateIsStillASeek() {
        var core = Self.joined()
        _ = core.receive(.state(SyncplayState(playstate: .init(position: 41, paused: true), ignoringOnTheFly: .init(server: 1))), now: 0.1,
                         room: Self.room)
        let paused = SyncplayServerCore.Room(position: 41, paused: true, setBy: "amy")
        _ = core.force(paused, doSeek: false, now: 1)
        let crossing = SyncplayState(playstate: .init(position: 10, paused: true, doSeek: true), ignoringOnTheFly: .init(client: 1))
        #expect(core.receive(.state(crossing), now: 1.05, room: paused).isEmpty)
        let answer = SyncplayState(playstate: .init(position: 10, paused: true), ignoringOnTheFly: .init(server: 1))
        #expect(core.receive(.state(answer), now: 1.1, room: paused) == [.request(.seek(to: 10))])

        // A client that took our jump instead (its answer is at the room) made no request.
        _ = core.force(paused, doSeek: true, now: 2)
        _ = core.receive(.state(SyncplayState(playstate: .init(position: 30, paused: true, doSeek: true))), now: 2.05, room: paused)
        #expect(core.receive(.state(SyncplayState(playstate: .init(position: 41, paused: true), ignoringOnTheFly: .init(server: 1))),
                             now: 2.1, room: paused).isEmpty)
    }

    @Test func noHelloAFloodAndSilenceAreDropped() {
        var mute = SyncplayServerCore(now: 0)
        #expect(mute.tick(now: SyncplayServerCore.helloTimeout - 1, room: nil).isEmpty)
        #expect(mute.tick(now: SyncplayServerCore.helloTimeout + 0.1, room: nil).last == .close("no Hello within \(SyncplayServerCore.helloTimeout) s"))

        var flood = Self.joined()
        var all: [SyncplayServerCore.Action] = []
        for _ in 0...SyncplayServerCore.floodLimit { all += flood.receive(.list(nil), now: 0.5, room: Self.room) }
        #expect(all.last == .close("more than \(SyncplayServerCore.floodLimit) messages a second"))
        #expect(all.filter { $0 == .listRequested }.count < SyncplayServerCore.floodLimit)
    }

    /// A client behind the room (Syncplay's client never catches up by itself) is sought back, after
    /// two reports running, not on one stale report; then not again until the seek had time to land.
    @Test func aDriftingClientIsSoughtBack() {
        var core = Self.joined()
        let playing = SyncplayServerCore.Room(position: 30, paused: false, setBy: "amy (Syncplay)")
        _ = core.receive(.state(SyncplayState(ignoringOnTheFly: .init(server: 1))), now: 1, room: playing)
        let behind = SyncplayState(playstate: .init(position: 20, paused: false))
        #expect(core.receive(.state(behind), now: 5, room: playing).isEmpty)
        let forced = Self.states(core.receive(.state(behind), now: 6, room: playing)).first
        // Named after the gateway, not the client: its player ignores its own name's seeks.
        #expect(forced?.playstate == .init(position: 30, paused: false, doSeek: true, setBy: SyncplayServerCore.gatewayName))
        _ = core.receive(.state(SyncplayState(ignoringOnTheFly: .init(server: 1))), now: 6.1, room: playing)
        #expect(core.receive(.state(behind), now: 6.5, room: playing).isEmpty)
        #expect(core.receive(.state(behind), now: 7, room: playing).isEmpty)
        let close = SyncplayState(playstate: .init(position: 29.9, paused: false))
        #expect(core.receive(.state(close), now: 10, room: playing).isEmpty)
        #expect(core.receive(.state(close), now: 11, room: playing).isEmpty)
    }

    @Test func theWelcomeIsAHelloAndAForcedStateHeldUntilAcknowledged() {
        var core = SyncplayServerCore(now: 0)
        _ = core.receive(Self.hello(), now: 0, room: nil)
        let welcome = core.welcome(name: "amy (Syncplay)", room: "party1", now: 5, state: Self.room)
        #expect(Array(welcome.prefix(2)) == [.send(.set([.playlistChange(user: nil, files: [])])),
                                             .send(.set([.playlistIndex(user: nil, index: nil)]))])
        guard case .send(.hello(let hello)) = welcome[safe: 2] else { Issue.record("no Hello"); return }
        #expect(hello.username == "amy (Syncplay)")
        #expect(hello.version == "1.2.255")
        let forced = Self.states(welcome).first
        #expect(forced?.playstate == .init(position: 12, paused: true, doSeek: true, setBy: "host"))
        #expect(forced?.ignoringOnTheFly == .init(server: 1))
        // No regular state until the client acknowledges the forced one.
        #expect(core.tick(now: 7, room: Self.room).isEmpty)
        _ = core.receive(.state(SyncplayState(ping: .init(latencyCalculation: 5, clientLatencyCalculation: 100, clientRtt: 0),
                                              ignoringOnTheFly: .init(server: 1))), now: 7.5, room: Self.room)
        let regular = Self.states(core.tick(now: 8, room: Self.room)).first
        #expect(regular?.ignoringOnTheFly == nil)
        #expect(regular?.ping?.latencyCalculation == 8)
        // Our stamp came back after 2.5 s; the client's is echoed plus the time we held it.
        #expect(core.ping.rtt == 2.5)
        #expect(regular?.ping?.clientLatencyCalculation == 100.5)
        #expect(core.tick(now: 8.5, room: Self.room).isEmpty)
    }

    @Test func aClientsPauseResumeAndSeekBecomeRequests() {
        var core = Self.joined()
        _ = core.receive(.state(SyncplayState(ignoringOnTheFly: .init(server: 1))), now: 1, room: Self.room)
        let resume = core.receive(.state(SyncplayState(playstate: .init(position: 12, paused: false),
                                                       ignoringOnTheFly: .init(client: 1))), now: 2, room: Self.room)
        #expect(resume == [.request(.play(at: 12))])
        let seek = core.receive(.state(SyncplayState(playstate: .init(position: 40, paused: true, doSeek: true))), now: 3, room: Self.room)
        #expect(seek == [.request(.seek(to: 40))])
        #expect(core.receive(.state(SyncplayState(playstate: .init(position: 12, paused: true))), now: 4, room: Self.room).isEmpty)

        // Refused: a forced state carries the party's state and echoes the client's counter.
        let forced = Self.states(core.force(Self.room, doSeek: true, now: 5)).first
        #expect(forced?.ignoringOnTheFly == .init(server: 1, client: 1))
        // Until the client acknowledges it, what it reports is stale.
        #expect(core.receive(.state(SyncplayState(playstate: .init(position: 40, paused: false))), now: 5.1, room: Self.room).isEmpty)
    }

    @Test func chatListReadinessFileAndSilence() {
        var core = Self.joined()
        #expect(core.receive(.chat(SyncplayChat(message: "hi")), now: 1, room: Self.room) == [.chat("hi")])
        #expect(core.receive(.list(nil), now: 1, room: Self.room) == [.listRequested])
        let file = SyncplayFile(name: "party.mp4", duration: 60, size: .bytes(1))
        #expect(core.receive(.set([.ready(username: nil, isReady: true, manuallyInitiated: false), .file(file)]), now: 1, room: Self.room)
            == [.setReady(true), .file(file)])
        // Its playlist is handed to the gateway, never echoed back to it.
        #expect(core.receive(.set([.playlistChange(user: nil, files: ["party.mp4"]), .playlistIndex(user: nil, index: 0)]), now: 1, room: Self.room)
            == [.playlist(["party.mp4"]), .playlistIndex(0)])
        #expect(core.tick(now: 1 + SyncplayServerCore.protocolTimeout + 0.1, room: Self.room).last
            == .close("no state from the client for \(SyncplayServerCore.protocolTimeout) s"))
    }

    /// Our client core and our server core, through the codec: the client joins, follows the
    /// room, and its pause reaches the server as a request.
    @Test func ourClientJoinsOurServer() throws {
        var client = SyncplayClientCore(configuration: .init(name: "tandem", room: "party1", password: "party-key", useTLS: true))
        var server = SyncplayServerCore(now: 0)
        var now = 0.0
        var room = SyncplayServerCore.Room(position: 30, paused: false, setBy: "host")
        var requests: [SyncplayServerCore.Request] = []
        var toServer = client.connected(now: now)
        for _ in 0..<8 {
            var toClient: [SyncplayServerCore.Action] = []
            for case .send(let message) in toServer {
                for decoded in try SyncplayCodec.decode(SyncplayCodec.encode(message)) {
                    for action in server.receive(decoded, now: now, room: room) {
                        switch action {
                        case .join(let name, let roomName, let password):
                            #expect(password == Self.digest)
                            toClient += server.welcome(name: name, room: roomName, now: now, state: room)
                        case .request(let request): requests.append(request)
                        default: toClient.append(action)
                        }
                    }
                }
            }
            now += 1
            room.position += 1
            toClient += server.tick(now: now, room: room)
            toServer = []
            for case .send(let message) in toClient {
                for decoded in try SyncplayCodec.decode(SyncplayCodec.encode(message)) {
                    toServer += client.receive(decoded, now: now, player: nil)
                }
            }
        }
        #expect(client.phase == .inRoom)
        #expect(client.me == "tandem")
        #expect(client.room.map { !$0.paused } == true)
        #expect(requests.isEmpty)
        toServer = client.userSetPaused(true, now: now, player: .init(position: room.position))
        for case .send(let message) in toServer {
            for decoded in try SyncplayCodec.decode(SyncplayCodec.encode(message)) {
                for case .request(let request) in server.receive(decoded, now: now, room: room) { requests.append(request) }
            }
        }
        #expect(requests == [.pause(at: room.position)])
    }
}
