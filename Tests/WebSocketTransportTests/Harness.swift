import Logging
import TestSupport
@testable import WebSocketTransport

/// A logger that drops everything.
let quiet = Logger(label: "tandem.test.ws", factory: { _ in SwiftLogNoOpLogHandler() })

/// How long a test step may take before the test fails instead of hanging. Only a guard against hangs:
/// every step normally finishes in milliseconds, so it is generous enough for a loaded 2-core machine.
let hangGuardSeconds: Double = 30

/// The next message, or nil when the stream finished.
func next(_ stream: AsyncStream<InboundMessage>, within seconds: Double = hangGuardSeconds) async throws -> String? {
    try await within(seconds) {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()?.text
    }
}

/// The next element of any stream, or nil when it finished.
func next<Element: Sendable>(_ stream: AsyncStream<Element>, within seconds: Double = hangGuardSeconds) async throws -> Element? {
    try await within(seconds) {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// Waits for the stream to finish, returning the messages that were still queued.
@discardableResult
func drain(_ stream: AsyncStream<InboundMessage>, within seconds: Double = hangGuardSeconds) async throws -> [String] {
    try await within(seconds) {
        var rest: [String] = []
        for await message in stream { rest.append(message.text) }
        return rest
    }
}

/// A started server plus a queue of the connections it accepted.
struct Harness {
    let server: WebSocketServer
    let port: Int
    let accepted: AsyncStream<WebSocketConnection>

    /// Starts a server on 127.0.0.1:0; `echo` answers every message with itself.
    static func start(
        path: String = "/",
        limits: WebSocketLimits = .init(),
        echo: Bool = true,
        httpResponder: (any HTTPResponder)? = nil
    ) async throws -> Harness {
        let server = WebSocketServer(
            host: "127.0.0.1",
            port: 0,
            path: path,
            limits: limits,
            logger: quiet,
            httpResponder: httpResponder
        )
        let (accepted, continuation) = AsyncStream.makeStream(of: WebSocketConnection.self)
        let port = try await server.start { connection in
            continuation.yield(connection)
            if echo {
                Task { for await message in connection.inbound { connection.send(message.text) } }
            }
        }
        return Harness(server: server, port: port, accepted: accepted)
    }

    func nextConnection(within seconds: Double = hangGuardSeconds) async throws -> WebSocketConnection {
        guard let connection = try await next(self.accepted, within: seconds) else { throw TimedOut(what: "a connection", seconds: seconds) }
        return connection
    }

    /// Connects a client; its connect timeout is only a hang guard.
    func connect(path: String = "/", limits: WebSocketLimits = .init()) async throws -> WebSocketConnection {
        try await WebSocketClient.connect(
            host: "127.0.0.1",
            port: self.port,
            path: path,
            limits: limits,
            connectTimeout: hangGuardSeconds,
            logger: quiet
        )
    }
}
