import NIOCore
import Synchronization
import Testing
import TestSupport
@testable import WebSocketTransport

/// Work done on the connection's event loop itself: messages answered where they are read (a party
/// server's time pings), several messages sent with one flush, and messages handed to a closure
/// instead of the inbound stream (a load generator's many connections).
@Suite("WebSocket work on the event loop")
struct WebSocketOnLoopTests {
    /// "pingN" is answered "pongN"; anything else is nil (delivered as usual).
    static let answer: @Sendable (String, Double) -> String? = { text, _ in
        text.hasPrefix("ping") ? "pong" + text.dropFirst(4) : nil
    }

    @Test func answeredMessagesAreRepliedToAndNotDeliveredTheOthersAre() async throws {
        let harness = try await Harness.start(echo: false)
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        server.answerInline(limitPerSecond: 1000, Self.answer)
        server.send("ready")  // written after the answering took effect
        #expect(try await next(client.inbound) == "ready")

        client.send("ping1")
        client.send("hello")
        client.send("ping2")
        #expect(try await next(client.inbound) == "pong1")
        #expect(try await next(client.inbound) == "pong2")
        #expect(try await next(server.inbound) == "hello", "the one message without an answer is delivered")
        client.send("last")
        #expect(try await next(server.inbound) == "last", "the pings were not delivered")
        await harness.server.stop()
    }

    /// A connected pair whose server answers pings inline, two a second, once a first message has
    /// crossed (so the answering is in place before the client sends).
    static func answeringTwoASecond() async throws -> (Harness, WebSocketConnection, WebSocketConnection) {
        let harness = try await Harness.start(echo: false)
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        server.answerInline(limitPerSecond: 2, answer)
        server.send("ready")
        #expect(try await next(client.inbound) == "ready")
        return (harness, client, server)
    }

    /// Past the limit of a second, answerable messages are delivered (the application's own flood limit
    /// sees them). The four pings are sent back to back: they arrive well within one second.
    @Test func pastTheLimitMessagesAreDeliveredInstead() async throws {
        let (harness, client, server) = try await Self.answeringTwoASecond()

        for n in 1...4 { client.send("ping\(n)") }
        #expect(try await next(client.inbound) == "pong1")
        #expect(try await next(client.inbound) == "pong2")
        #expect(try await next(server.inbound) == "ping3")
        #expect(try await next(server.inbound) == "ping4")
        await harness.server.stop()
    }

    /// Messages of any kind count toward the limit, answered ones too, and each delivered message says
    /// how many the peer sent in its second (an application's flood limit compares that). Sent in one
    /// write: they arrive well within one second.
    @Test func answeredMessagesCountTowardTheLimitAndTheDeliveredCount() async throws {
        let (harness, client, server) = try await Self.answeringTwoASecond()

        client.send(utf8Messages: ["ping1", "hello", "ping2", "ping3"].map { ByteBuffer(string: $0) })
        #expect(try await next(client.inbound) == "pong1")
        var delivered: [String] = []
        for _ in 0..<3 {
            let next: InboundMessage? = try await next(server.inbound)
            guard let message = next else { break }
            delivered.append("\(message.text)#\(message.messagesThisSecond)")
        }
        #expect(delivered == ["hello#2", "ping2#3", "ping3#4"], "the second was over its limit after the hello")
        await harness.server.stop()
    }

    @Test func aBatchArrivesWholeAndInOrder() async throws {
        let harness = try await Harness.start(echo: false)
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        server.send(utf8Messages: ["one", "two", "three"].map { ByteBuffer(string: $0) })
        server.send("four")
        for expected in ["one", "two", "three", "four"] { #expect(try await next(client.inbound) == expected) }
        await harness.server.stop()
    }

    @Test func messagesHandledOnTheLoopBypassTheInboundStream() async throws {
        let harness = try await Harness.start(echo: false)
        let client = try await harness.connect()
        let server = try await harness.nextConnection()
        let seen = Mutex<[String]>([])
        client.handleOnEventLoop { message in seen.withLock { $0.append(message.text) } }
        client.send("go")  // after the handler took effect (it is queued first)
        #expect(try await next(server.inbound) == "go")
        server.send("x")
        server.send("y")
        #expect(await eventually { seen.withLock { $0 } == ["x", "y"] })
        server.close(reason: "done")
        #expect(try await drain(client.inbound).isEmpty, "nothing went to the inbound stream")
        await harness.server.stop()
    }
}
