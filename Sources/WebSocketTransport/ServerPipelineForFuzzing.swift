import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The pipeline ``WebSocketServer`` gives an accepted connection (HTTP/1.1 codec, the WebSocket
/// upgrader for its path, the ``HTTPGateHandler``, and after an upgrade the connection's frame
/// handlers), built on any channel, so the fuzz target can drive the HTTP upgrade path through an
/// `EmbeddedChannel` without sockets. Keep in step with `WebSocketServer.initializeChild`; it
/// differs only in having no server registry (an upgraded connection goes to `onConnection` at once).
package enum ServerPipelineForFuzzing {
    package static func install(
        on channel: any Channel,
        path: String,
        limits: WebSocketLimits,
        responder: (any HTTPResponder)?,
        logger: Logger,
        onConnection: @escaping @Sendable (WebSocketConnection) -> Void
    ) throws {
        let state = ConnectionState()
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: limits.maxFrameSize,
            automaticErrorHandling: false,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(HTTPGateHandler.matches(uri: head.uri, base: path) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let connection = try WebSocketConnection.install(
                        on: channel, isClient: false, requestPath: HTTPGateHandler.pathOnly(head.uri),
                        limits: limits, state: state, logger: logger)
                    onConnection(connection)
                }
            }
        )
        let sync = channel.pipeline.syncOperations
        try sync.configureHTTPServerPipeline(
            withServerUpgrade: (
                upgraders: [upgrader],
                completionHandler: { context in
                    context.pipeline.syncOperations.removeHandler(name: HTTPGateHandler.name, promise: nil)
                }
            )
        )
        try sync.addHandler(
            HTTPGateHandler(path: path, responder: responder, handshakeTimeout: limits.handshakeTimeout, state: state, logger: logger),
            name: HTTPGateHandler.name
        )
    }
}
