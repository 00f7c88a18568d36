import Logging
import NIOCore
import NIOPosix

/// mpv's JSON IPC (`--input-ipc-server`) on a UNIX domain socket, for a subset of commands.
///
/// Clients send newline-terminated JSON requests and get newline-terminated JSON replies and
/// events, as with mpv, so mpv tools (`socat`, Syncplay-style scripts) can watch and steer the
/// application behind ``IPCTarget``. Each client gets its own channel and serving task; a
/// misbehaving client (garbage, over-long lines) only affects itself.
///
/// ```swift
/// let server = IPCServer(socketPath: "/tmp/tandem.sock", target: player)
/// try await server.start()
/// // ...
/// await server.stop()
/// ```
public actor IPCServer {
    /// The default limit on one request line, in bytes.
    public static let defaultMaxLineLength = 64 * 1024

    /// Where the server listens.
    public nonisolated let socketPath: String
    /// Clients sending a longer line (without a newline) are disconnected.
    public nonisolated let maxLineLength: Int

    private let target: any IPCTarget
    private let logger: Logger
    private let group: any EventLoopGroup

    private struct Listening {
        let channel: any Channel
        let clients: IPCClientRegistry
        let forwarder: Task<Void, Never>

        /// Closes everything without waiting (used by `deinit` and as the first step of `stop()`).
        func shutDown() -> [IPCConnection] {
            forwarder.cancel()
            let connections = clients.close()
            channel.close(promise: nil)
            for connection in connections {
                connection.cancel()
                connection.channel.close(promise: nil)
            }
            return connections
        }
    }

    private enum State {
        case idle
        case starting
        case listening(Listening)
    }

    private var state = State.idle

    /// Creates a server; nothing happens until ``start()``.
    ///
    /// - Parameters:
    ///   - socketPath: Path of the UNIX socket to create (an existing socket file there is replaced,
    ///     as mpv does).
    ///   - target: The application that requests are run against.
    ///   - maxLineLength: Longest accepted request line in bytes.
    ///   - logger: Receives connection events and the reasons clients are dropped.
    ///   - group: Event loops for the listener and clients.
    public init(
        socketPath: String,
        target: any IPCTarget,
        maxLineLength: Int = IPCServer.defaultMaxLineLength,
        logger: Logger = Logger(label: "tandem.ipc"),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.socketPath = socketPath
        self.target = target
        self.maxLineLength = maxLineLength
        self.logger = logger
        self.group = group
    }

    /// A server dropped while listening closes its socket and clients without waiting;
    /// prefer calling ``stop()``.
    deinit {
        if case .listening(let listening) = state {
            _ = listening.shutDown()
            IPCSocketPath.removeSocket(at: socketPath)
        }
    }

    /// Whether the server is accepting clients.
    public var isListening: Bool {
        if case .listening = state { true } else { false }
    }

    /// The number of connected clients.
    public var clientCount: Int {
        if case .listening(let listening) = state { listening.clients.count } else { 0 }
    }

    /// Each client's waiting work: lines and changes, changes alone, and changes merged so far
    /// (see ``IPCConnectionInbox``). For tests.
    var clientBacklogs: [(count: Int, pendingChanges: Int, coalesced: Int)] {
        if case .listening(let listening) = state { listening.clients.all.map(\.inboxSnapshot) } else { [] }
    }

    /// Creates the socket and starts accepting clients; returns once listening.
    ///
    /// Also subscribes to ``IPCTarget/propertyChanges()`` to feed observers.
    ///
    /// - Throws: ``IPCServerError`` naming the path and the reason: missing or unwritable
    ///   directory, a non-socket file in the way, a path too long for a UNIX socket, or the server
    ///   already running.
    public func start() async throws(IPCServerError) {
        guard case .idle = state else {
            throw IPCServerError(path: socketPath, reason: "the server is already running")
        }
        try IPCSocketPath.validate(socketPath)
        state = .starting

        let clients = IPCClientRegistry()
        let channel: any Channel
        do {
            channel = try await makeBootstrap(clients: clients)
                .bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true)
                .get()
        } catch {
            state = .idle
            throw IPCServerError(path: socketPath, reason: IPCSocketPath.reason(for: error))
        }
        guard case .starting = state else {
            // stop() was called while binding.
            _ = clients.close()
            try? await channel.close().get()
            IPCSocketPath.removeSocket(at: socketPath)
            throw IPCServerError(path: socketPath, reason: "the server was stopped while starting")
        }

        let changes = target.propertyChanges()
        let forwarder = Task {
            await Self.forward(changes, to: clients)
        }
        state = .listening(Listening(channel: channel, clients: clients, forwarder: forwarder))
        logger.info("mpv IPC server listening", metadata: ["path": "\(socketPath)"])
    }

    /// Closes the listener and every client, and removes the socket file. Requests already being
    /// run against the target finish; queued ones are dropped. The server can be started again.
    ///
    /// As with mpv, the path is removed even if another server has since replaced the socket there.
    public func stop() async {
        guard case .listening(let listening) = state else {
            state = .idle
            return
        }
        state = .idle
        let connections = listening.shutDown()
        try? await listening.channel.closeFuture.get()
        for connection in connections {
            try? await connection.channel.closeFuture.get()
        }
        IPCSocketPath.removeSocket(at: socketPath)
        logger.info("mpv IPC server stopped", metadata: ["path": "\(socketPath)"])
    }

    private func makeBootstrap(clients: IPCClientRegistry) -> ServerBootstrap {
        let target = target
        let logger = logger
        let maxLineLength = maxLineLength
        return ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 32)
            // Lets `echo '{…}' | socat - SOCKET` get its replies after sending EOF.
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let id = clients.makeID()
                    var clientLogger = logger
                    clientLogger[metadataKey: "ipc-client"] = "\(id)"
                    let connection = IPCConnection(id: id, channel: channel, target: target, logger: clientLogger)
                    guard clients.add(connection) else {
                        connection.cancel()
                        throw CancellationError()  // stopping: NIO closes the new channel
                    }
                    do {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(ByteToMessageHandler(IPCLineDecoder(maxLineLength: maxLineLength)))
                        try pipeline.addHandler(
                            IPCConnectionHandler(connection: connection, registry: clients, logger: clientLogger)
                        )
                    } catch {
                        clients.remove(connection)
                        connection.cancel()
                        throw error
                    }
                }
            }
    }

    private static func forward(_ changes: AsyncStream<IPCPropertyChange>, to clients: IPCClientRegistry) async {
        for await change in changes {
            clients.broadcast(change)
        }
    }
}
