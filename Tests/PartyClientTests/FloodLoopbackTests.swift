import Logging
import NIOCore
import PartyKit
import PartyServer
import PartyClient
import Testing
import TestSupport
import WebSocketTransport

/// The flood limit on a real server over loopback: a joined member's time pings are answered on its
/// connection's event loop, never reaching the core, and still count toward its 200 messages a second.
@Suite(.serialized) struct FloodLoopbackTests {
    /// Messages the flooder sends in one write: pings and statuses, neither past the limit alone.
    static let pings = 150, statuses = 100

    @Test func pingsAnsweredOnTheEventLoopCountTowardTheFloodLimit() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let notices = PartyLoopbackTests.Notices()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "flood", key: "k", insecure: true)
        // A normal member, on its real ping schedule (the join's burst, then ten a second) and statuses.
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: notices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.synced })

        let flooder = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/flood", logger: Logger(label: "test"))
        flooder.send(PartyProtocol.encode(.hello(Hello(party: "flood", key: "k", name: "Flo"))))
        var replies = flooder.inbound.makeAsyncIterator()
        guard case .welcome(let welcome)? = try? PartyProtocol.decode(await replies.next()?.text ?? "") else {
            Issue.record("the flooder was not welcomed")
            return
        }
        // One write, so they arrive well within a second: three pings to two statuses.
        let burst = (0..<(Self.pings + Self.statuses)).map { i -> ByteBuffer in
            let message: PartyMessage = i % 5 < 3 ? .timePing(TimePing(id: i, t0: 0))
                                                  : .status(Status(epoch: welcome.timeline.epoch, state: .syncing))
            return ByteBuffer(string: PartyProtocol.encode(message))
        }
        flooder.send(utf8Messages: burst)
        // Then a question the server answers only if it kept the flooder.
        flooder.send(PartyProtocol.encode(.listParticipants))
        var pongs = 0
        var outcome: PartyMessage?
        while let text = await replies.next()?.text {
            switch try? PartyProtocol.decode(text) {
            case .timePong?: pongs += 1
            case let message? where message.type == "error" || message.type == "participants": outcome = message
            default: continue
            }
            if outcome != nil { break }
        }
        guard case .error(let error)? = outcome else {
            Issue.record("\(Self.pings + Self.statuses) messages in a second were not a flood: \(String(describing: outcome))")
            return
        }
        #expect(error.code == .flood, "\(error)")
        #expect(pongs <= PartyServerCore.floodLimit)
        let after = await replies.next()
        #expect(after == nil, "the flooder's connection was closed")

        // The normal member was never dropped: one welcome, no flood, and it plays on.
        await host.request(.play)
        #expect(await eventually { await host.status.playing })
        #expect(notices.all.filter { $0.hasPrefix("joined party") }.count == 1, "\(notices.all)")
        #expect(!notices.all.contains { $0.contains("messages a second") }, "\(notices.all)")
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }
}
