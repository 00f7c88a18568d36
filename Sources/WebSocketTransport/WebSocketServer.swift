import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A WebSocket server for text messages: HTTP/1.1 upgrade on one path (and below it). Other HTTP requests
/// go to an optional ``HTTPResponder`` on the same port; without one they are answered with an HTTP error
/// and closed.
///
/// ```swift
/// let server = WebSocketServer(host: "0.0.0.0", port: 8080, path: "/party", logger: logger)
/// let port = try await server.start { connection in
///     Task { for await text in connection.inbound { connection.send(text) } }
/// }
/// ...
/// await server.stop()
/// ```
public final class WebSocketServer: Sendable {
    private enum Phase {
        case idle
        case starting
        case running
        case stopped
    }

    private struct Child {
        let channel: any Channel
        let state: ConnectionState
        var connection: WebSocketConnection?
    }

    private struct Registry {
        var phase = Phase.idle
        var listener: (any Channel)?
        var children: [ObjectIdentifier: Child] = [:]
    }

    private let host: String
    private let port: Int
    private let path: String
    private let limits: WebSocketLimits
    private let logger: Logger
    private let httpResponder: (any HTTPResponder)?
    private let tls: (any WebSocketSecurity)?
    private let registry = Mutex(Registry())

    /// Creates a stopped server.
    ///
    /// - Parameters:
    ///   - host: Address to listen on: `"127.0.0.1"`, `"0.0.0.0"`, `"::"` or a host name.
    ///   - port: TCP port; 0 picks a free one (see the return value of ``start(onConnection:)``).
    ///   - path: Upgrade path. Requests for `path` or anything below it (`/party` takes `/party/ABC`) are
    ///     upgraded; ``WebSocketConnection/requestPath`` tells which. `"/"` takes every path.
    ///   - limits: Message size, idle, ping and queue limits for every connection.
    ///   - logger: Receives connection and error events.
    ///   - httpResponder: Serves the requests that are not WebSocket upgrades (see ``HTTPResponder`` for
    ///     which). `nil` answers them 404 (other paths), 426 (the WebSocket path without an upgrade) or
    ///     400 (a failed upgrade) and closes.
    ///   - tls: The server's TLS (WebSocketTLS's `WebSocketServerTLS`): every connection is TLS (`wss://`,
    ///     and `https://` for the responder), the TLS handler first in its pipeline. `nil`: plain `ws://`
    ///     and `http://`.
    public init(
        host: String,
        port: Int,
        path: String = "/",
        limits: WebSocketLimits = .init(),
        logger: Logger,
        httpResponder: (any HTTPResponder)? = nil,
        tls: (any WebSocketSecurity)? = nil
    ) {
        self.tls = tls
        self.host = host
        self.port = port
        var path = path.hasPrefix("/") ? path : "/" + path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.path = path
        self.limits = limits
        self.logger = logger
        self.httpResponder = httpResponder
    }

    /// A server dropped without ``stop()`` still releases its socket and connections (without waiting).
    deinit {
        let (listener, children) = self.registry.withLock { registry in
            (registry.listener, Array(registry.children.values))
        }
        listener?.close(promise: nil)
        for child in children {
            child.state.record("server released")
            child.state.close(child.channel)
        }
    }

    /// Connections currently open (upgraded, still in the HTTP stage, or handed to the HTTP responder); for
    /// tests and status displays.
    var openConnectionCount: Int {
        self.registry.withLock { $0.children.count }
    }

    /// Binds and starts accepting connections; returns the port actually bound (useful with port 0).
    ///
    /// `onConnection` runs on an event loop once per upgraded connection, before its first message is
    /// delivered; it must not block (start a `Task` to read ``WebSocketConnection/inbound``).
    ///
    /// - Throws: ``WebSocketTransportError`` naming `host:port` and the reason, e.g.
    ///   "could not listen on 127.0.0.1:8080: address already in use".
    public func start(onConnection: @escaping @Sendable (WebSocketConnection) -> Void) async throws -> Int {
        let canStart = self.registry.withLock { registry in
            guard case .idle = registry.phase else { return false }
            registry.phase = .starting
            return true
        }
        guard canStart else {
            throw WebSocketTransportError(.invalidState, "WebSocket server on \(self.address) was already started")
        }

        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(
                .writeBufferWaterMark,
                value: .init(low: WebSocketLimits.outboundLowWatermark, high: self.limits.outboundHighWatermark)
            )
            .childChannelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let self else {
                        channel.close(promise: nil)
                        return
                    }
                    try self.initializeChild(channel, onConnection: onConnection)
                }
            }

        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: self.host, port: self.port).get()
        } catch {
            self.registry.withLock { $0.phase = .idle }
            throw WebSocketTransportError(.bindFailed, "could not listen on \(self.address): \(Self.explain(error))")
        }
        let keep = self.registry.withLock { registry in
            guard case .starting = registry.phase else { return false }
            registry.phase = .running
            registry.listener = listener
            return true
        }
        guard keep else {
            try? await listener.close()
            throw WebSocketTransportError(.invalidState, "WebSocket server on \(self.address) was stopped while starting")
        }
        let bound = listener.localAddress?.port ?? self.port
        self.logger.info("WebSocket server listening", metadata: ["host": "\(self.host)", "port": "\(bound)", "path": "\(self.path)"])
        return bound
    }

    /// Stops listening and closes every connection (WebSocket close 1001 "server stopping" for upgraded ones);
    /// returns when all sockets are closed. Their ``WebSocketConnection/inbound`` streams finish.
    public func stop() async {
        let (listener, children) = self.registry.withLock { registry in
            registry.phase = .stopped
            let listener = registry.listener
            registry.listener = nil
            return (listener, Array(registry.children.values))
        }
        if let listener {
            try? await listener.close()
        }
        for child in children {
            if let connection = child.connection {
                connection.shutdown()
            } else {
                child.state.record("server stopping")
                child.state.close(child.channel)
            }
        }
        for child in children {
            try? await child.channel.closeFuture.get()
        }
        if listener != nil {
            self.logger.info("WebSocket server stopped", metadata: ["host": "\(self.host)", "port": "\(self.port)"])
        }
    }

    // MARK: Per connection (on the child's event loop)

    private func initializeChild(
        _ channel: any Channel,
        onConnection: @escaping @Sendable (WebSocketConnection) -> Void
    ) throws {
        let state = ConnectionState()
        let id = ObjectIdentifier(channel)
        let accepted = self.registry.withLock { registry in
            guard case .running = registry.phase else { return false }
            registry.children[id] = Child(channel: channel, state: state)
            return true
        }
        guard accepted else {
            state.record("server stopping")
            state.close(channel)
            return
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.registry.withLock { $0.children.removeValue(forKey: id) }
        }

        var logger = self.logger
        logger[metadataKey: "ws.peer"] = "\(WebSocketConnection.describe(channel.remoteAddress))"
        try ServerPipeline.install(
            on: channel, path: self.path, limits: self.limits, responder: self.httpResponder, tls: self.tls,
            state: state, logger: logger
        ) { [weak self] connection in
            let registered = self?.registry.withLock { registry in
                guard case .running = registry.phase, registry.children[id] != nil else { return false }
                registry.children[id]?.connection = connection
                return true
            } ?? false
            guard registered else {
                // The server is stopping or gone: this socket is already being closed.
                state.record("server stopping")
                state.close(channel)
                return
            }
            if channel.isActive {
                onConnection(connection)
            }
        }
    }

    private var address: String {
        self.host.contains(":") ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
    }

    /// A short human reason for a bind failure.
    static func explain(_ error: any Error) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return "address already in use"
            case EACCES: return "permission denied"
            case EADDRNOTAVAIL: return "address not available on this machine"
            default: return "\(error)"
            }
        }
        if let error = error as? SocketAddressError {
            switch error {
            case .unknown(let host, _):
                return "unknown host \(host)"
            default:
                return "\(error)"
            }
        }
        return "\(error)"
    }
}
