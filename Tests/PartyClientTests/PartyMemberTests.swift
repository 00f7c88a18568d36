import Foundation
import Logging
import MediaTime
import PartyKit
import PartyClient
import PlayerCore
import Synchronization
import Testing
import TestSupport
import WebSocketTransport

/// A party server played by the test over a real WebSocket: it answers hello and time pings as the
/// real one does, and sends what the test scripts when the member reports ready.
final class ScriptedPartyServer: Sendable {
    let server = WebSocketServer(host: "127.0.0.1", port: 0, path: "/party/",
                                 limits: WebSocketLimits(maxMessageBytes: PartyProtocol.maxMessageBytes),
                                 logger: Logger(label: "scripted"))
    let clock = MonotonicTimeSource()
    let config: PartyConfig
    /// Sent once, on the member's first "ready" status: returns the messages to send.
    private let onReady: Mutex<(@Sendable (Double) -> [PartyMessage])?>

    init(items: [MediaItem], onReady: @escaping @Sendable (_ now: Double) -> [PartyMessage]) {
        config = PartyConfig(items: items)
        self.onReady = Mutex(onReady)
    }

    func start() async throws -> Int {
        try await server.start { [self] connection in
            Task { await self.serve(connection) }
        }
    }

    private func serve(_ connection: WebSocketConnection) async {
        for await inbound in connection.inbound {
            guard let message = try? PartyProtocol.decode(inbound.text) else { continue }
            let now = clock.now()
            switch message {
            case .hello(let hello):
                let you = ParticipantInfo(id: "p1", name: hello.name, role: .participant, joinedAt: now)
                let welcome = Welcome(version: PartyProtocol.version, party: hello.party, you: you, token: "t", config: config,
                                      participants: [you], timeline: Timeline(epoch: 1, item: 0, position: 0, partyTime: now,
                                                                              playing: true, jump: true),
                                      chat: [], serverTime: now)
                connection.send(PartyProtocol.encode(.welcome(welcome)))
            case .timePing(let ping):
                connection.send(PartyProtocol.encode(.timePong(TimePong(id: ping.id, t0: ping.t0, t1: inbound.receivedAt, t2: now))))
            case .status(let status) where status.state == .ready:
                guard let script = onReady.withLock({ f -> (@Sendable (Double) -> [PartyMessage])? in
                    defer { f = nil }
                    return f
                }) else { continue }
                for message in script(now) { connection.send(PartyProtocol.encode(message)) }
            default:
                break
            }
        }
    }
}

@Suite(.serialized) struct PartyMemberTests {
    /// Seconds between the item change's message and its instant: the member's player prerolls the
    /// next item and waits for the instant all this time.
    static let switchLead = 4.0

    /// Chat (and anything else from the server) reaches the member while its player prerolls the
    /// next item and waits for the switch: the inbound path never waits on media work.
    @Test func messagesArriveWhileAPlayerWaitsForItsInstant() async throws {
        let switchAt = Mutex<Double?>(nil)
        let scripted = ScriptedPartyServer(items: [PartyLoopbackTests.item("party.mp4"), PartyLoopbackTests.item("party.mp4")]) { now in
            let instant = now + Self.switchLead
            switchAt.withLock { $0 = instant }
            return [.timeline(Timeline(epoch: 2, item: 1, position: 2, partyTime: instant, playing: true, jump: true,
                                       reason: "next item")),
                    .chatMessage(ChatMessage(from: "Hana", text: "switching soon", time: now))]
        }
        let port = try await scripted.start()
        let heard = Mutex<[(text: String, at: Double)]>([])
        let clock = MonotonicTimeSource()
        let member = PartyMember(options: .init(link: PartyLink(host: "127.0.0.1", port: port, party: "p", key: "k", insecure: true),
                                                name: "Gus", mediaFolders: [PartyLoopbackTests.media],
                                                playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                                logger: Logger(label: "test")),
                                 notices: { notice in heard.withLock { $0.append((notice.text, clock.now())) } })
        let run = Task { await member.run() }
        #expect(await eventually(within: 30) { await member.currentItem == 1 })
        let instant = try #require(switchAt.withLock { $0 })
        let chat = try #require(heard.withLock { $0.first { $0.text == "<Hana> switching soon" } })
        // Heard long before the instant the player was waiting for (with the old runner: after it).
        #expect(chat.at < instant - Self.switchLead / 2)
        await member.leave()
        _ = await run.value
        await member.shutDown()
        await scripted.server.stop()
    }
}
