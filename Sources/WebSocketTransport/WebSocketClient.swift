import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens client WebSocket connections (text messages, frames masked as RFC 6455 requires).
public enum WebSocketClient {
    /// Connects to `ws://host:port/path` (or `wss://` with `tls`) and completes the HTTP upgrade.
    ///
    /// - Parameters:
    ///   - host: Host name or IP address.
    ///   - port: TCP port.
    ///   - path: Request path, e.g. `"/party/ABC"`; a missing leading slash is added.
    ///   - limits: Message size, idle, ping and queue limits for this connection.
    ///   - connectTimeout: Seconds allowed for the TCP connection, and again for the upgrade. Default 5.
    ///   - logger: Receives connection events.
    ///   - tls: TLS for `wss://` (WebSocketTLS's `WebSocketClientTLS`): its handler goes first in the
    ///     pipeline. `nil`: plain `ws://`.
    /// - Returns: The open connection.
    /// - Throws: ``WebSocketTransportError`` naming `host:port`: "connection refused by host:port",
    ///   "host:port did not answer the WebSocket upgrade of /path (HTTP 404 Not Found)", timeouts, unknown host,
    ///   TLS failures (kind ``WebSocketTransportError/Kind/tlsFailed``).
    public static func connect(
        host: String,
        port: Int,
        path: String,
        limits: WebSocketLimits = .init(),
        connectTimeout: Double = 5,
        logger: Logger,
        tls: (any WebSocketSecurity)? = nil
    ) async throws -> WebSocketConnection {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let path = path.hasPrefix("/") ? path : "/" + path
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = eventLoop.makePromise(of: WebSocketConnection.self)
        let state = ConnectionState()

        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(Seconds.timeAmount(connectTimeout))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(
                .writeBufferWaterMark,
                value: .init(low: WebSocketLimits.outboundLowWatermark, high: limits.outboundHighWatermark)
            )
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handshake = ClientHandshakeHandler(
                        address: address,
                        path: path,
                        timeout: connectTimeout,
                        tls: tls,
                        state: state,
                        promise: promise
                    )
                    let boundHandshake = NIOLoopBound(handshake, eventLoop: channel.eventLoop)
                    let upgrader = NIOWebSocketClientUpgrader(
                        maxFrameSize: limits.maxFrameSize,
                        automaticErrorHandling: false,
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                do {
                                    let connection = try WebSocketConnection.install(
                                        on: channel,
                                        isClient: true,
                                        requestPath: path,
                                        limits: limits,
                                        encrypted: tls != nil,
                                        state: state,
                                        logger: logger
                                    )
                                    boundHandshake.value.succeed(connection)
                                } catch {
                                    boundHandshake.value.fail(
                                        channel: channel,
                                        .connectionFailed,
                                        "WebSocket setup for \(address) failed: \(error)"
                                    )
                                    throw error
                                }
                            }
                        }
                    )
                    let sync = channel.pipeline.syncOperations
                    try tls?.addHandlers(to: sync)
                    try sync.addHTTPClientHandlers(
                        leftOverBytesStrategy: .forwardBytes,
                        withClientUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.syncOperations.removeHandler(
                                    name: ClientHandshakeHandler.name,
                                    promise: nil
                                )
                            }
                        )
                    )
                    try sync.addHandler(handshake, name: ClientHandshakeHandler.name)
                    // Covers a close after the handshake handler left the pipeline but before the upgrade finished.
                    channel.closeFuture.whenComplete { _ in
                        boundHandshake.value.fail(
                            channel: channel,
                            .connectionFailed,
                            "\(address) closed the connection during the WebSocket upgrade",
                            alreadyClosed: true
                        )
                    }
                }
            }

        bootstrap.connect(host: host, port: port).whenFailure { error in
            promise.fail(Self.describeConnectFailure(error, address: address, timeout: connectTimeout))
        }
        let connection = try await promise.futureResult.get()
        logger.debug("WebSocket connected", metadata: ["ws.peer": "\(address)", "ws.path": "\(path)"])
        return connection
    }

    /// A TCP connect failure to `address` as a sentence ("connection refused by 127.0.0.1:9"), for other
    /// clients that dial the same servers.
    public static func describeConnectFailure(_ error: any Error, address: String, timeout: Double) -> WebSocketTransportError {
        var underlying: [any Error] = [error]
        if let error = error as? NIOConnectionError {
            if let dnsError = error.dnsAError ?? error.dnsAAAAError, error.connectionErrors.isEmpty {
                return WebSocketTransportError(.unknownHost, "could not resolve the host of \(address): \(dnsError)")
            }
            underlying = error.connectionErrors.map(\.error)
        }
        for error in underlying {
            if let error = error as? IOError, error.errnoCode == ECONNREFUSED {
                return WebSocketTransportError(.connectionRefused, "connection refused by \(address)")
            }
        }
        for error in underlying {
            if case ChannelError.connectTimeout = error {
                return WebSocketTransportError(
                    .timedOut,
                    "connecting to \(address) timed out after \(Seconds.text(timeout)) s"
                )
            }
            if let error = error as? IOError {
                switch error.errnoCode {
                case ENETUNREACH, EHOSTUNREACH:
                    return WebSocketTransportError(.connectionFailed, "\(address) is unreachable from this network")
                case ETIMEDOUT:
                    return WebSocketTransportError(.timedOut, "connecting to \(address) timed out")
                default:
                    break
                }
            }
            if case SocketAddressError.unknown = error {
                return WebSocketTransportError(.unknownHost, "could not resolve the host of \(address)")
            }
        }
        return WebSocketTransportError(.connectionFailed, "could not connect to \(address): \(error)")
    }
}
