import NIOCore
import Testing
@testable import WebSocketTransport

/// Binary messages: refused (1003) unless the application accepted them on that connection, and then
/// delivered in order with text ones, under the same size limit.
@Suite("WebSocket binary messages")
struct WebSocketBinaryTests {
    @Test func binaryIsRefusedUntilAcceptedThenDeliveredInOrderUnderTheSameLimit() async throws {
        let limits = WebSocketLimits(maxMessageBytes: 1024)
        let harness = try await Harness.start(limits: limits, echo: false)

        // Not accepted: the first binary message closes the connection, whoever sends it.
        let refusing = try await harness.connect(limits: limits)
        let refusingServerSide = try await harness.nextConnection()
        refusing.send(binary: ByteBuffer(bytes: [1, 2, 3]))
        #expect(try await drain(refusingServerSide.inbound).isEmpty)
        try await drain(refusing.inbound)
        #expect(refusingServerSide.closeReason == "binary frames are not supported")
        #expect(refusing.closeReason?.hasPrefix("peer closed (code 1003") == true)

        // Accepted: binary and text arrive in the order sent; the payload is the bytes as sent.
        let client = try await harness.connect(limits: limits)
        let server = try await harness.nextConnection()
        server.acceptBinaryMessages()
        server.send("go")  // written after the acceptance took effect
        #expect(try await next(client.inbound) == "go")
        let atLimit = (0..<1024).map { UInt8(truncatingIfNeeded: $0 * 7) }
        client.send("before")
        client.send(binary: ByteBuffer(bytes: atLimit))
        client.send("after")
        var received: [InboundMessage] = []
        for _ in 0..<3 {
            let message: InboundMessage? = try await next(server.inbound)
            guard let message else { break }
            received.append(message)
        }
        #expect(received.map(\.text) == ["before", "", "after"])
        #expect(received.map { $0.binary.map { Array($0.readableBytesView) } } == [nil, atLimit, nil])

        // One byte over the limit: closed as too big, before the payload is read.
        client.send(binary: ByteBuffer(bytes: atLimit + [0]))
        try await drain(server.inbound)
        try await drain(client.inbound)
        #expect(server.closeReason == "message too big (over 1024 bytes)")
        #expect(client.closeReason?.hasPrefix("peer closed (code 1009") == true)
        await harness.server.stop()
    }
}
