import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The pipeline ``WebSocketServer`` gives an accepted connection: its ``WebSocketSecurity`` (TLS) when
/// configured (with the ``FileRegionReader`` that turns a responder's sendfile bodies into buffers), the HTTP/1.1 codec, the
/// WebSocket upgrader for its path and the ``HTTPGateHandler``; after an upgrade, the connection's frame
/// handlers. One definition for the server and for the fuzz target, which drives it on an
/// `EmbeddedChannel` without sockets.
package enum ServerPipeline {
    /// Installs the pipeline on `channel`, for a connection of its own.
    ///
    /// - Parameter upgraded: Called on the channel's event loop with each upgraded connection.
    package static func install(
        on channel: any Channel,
        path: String,
        limits: WebSocketLimits,
        responder: (any HTTPResponder)?,
        tls: (any WebSocketSecurity)?,
        logger: Logger,
        upgraded: @escaping @Sendable (WebSocketConnection) -> Void
    ) throws {
        try install(on: channel, path: path, limits: limits, responder: responder, tls: tls, state: ConnectionState(),
                    logger: logger, upgraded: upgraded)
    }

    /// Installs the pipeline on `channel`, whose close reason and closing `state` keeps.
    static func install(
        on channel: any Channel,
        path: String,
        limits: WebSocketLimits,
        responder: (any HTTPResponder)?,
        tls: (any WebSocketSecurity)?,
        state: ConnectionState,
        logger: Logger,
        upgraded: @escaping @Sendable (WebSocketConnection) -> Void
    ) throws {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: limits.maxFrameSize,
            automaticErrorHandling: false,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(HTTPGateHandler.matches(uri: head.uri, base: path) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let connection: WebSocketConnection
                    do {
                        connection = try WebSocketConnection.install(
                            on: channel, isClient: false, requestPath: HTTPGateHandler.pathOnly(head.uri),
                            limits: limits, encrypted: tls != nil, state: state, logger: logger)
                    } catch {
                        state.record("WebSocket setup failed: \(error)")
                        state.close(channel)
                        throw error
                    }
                    upgraded(connection)
                }
            }
        )
        let sync = channel.pipeline.syncOperations
        if let tls {
            try tls.addHandlers(to: sync)
            // TLS encrypts bytes in memory: a responder's sendfile bodies are read into buffers first.
            try sync.addHandler(FileRegionReader(), name: FileRegionReader.name)
        }
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
