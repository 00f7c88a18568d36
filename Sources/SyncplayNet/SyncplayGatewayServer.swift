import Foundation
import MediaTime
import NIOCore
import NIOPosix
import SyncplayKit
import Synchronization

/// What the gateway serves Syncplay clients from: a room's state and its rules. The party side
/// of `serve --syncplay` implements it over the party API (docs/syncplay.md); tests use a room of
/// their own.
public protocol SyncplayRoomHost: Sendable {
    /// The room's state now.
    func room() async -> SyncplayServerCore.Room
    /// Lets a client in; returns the name it is shown as.
    func join(name: String, room: String) async -> String
    /// A client's pause, resume or seek; false when refused (the client is then forced back).
    func request(_ request: SyncplayServerCore.Request, from name: String) async -> Bool
    func chat(_ text: String, from name: String) async
    func left(_ name: String) async
}

/// A Syncplay server on a TCP port whose rooms are a ``SyncplayRoomHost``: one
/// ``SyncplayServerCore`` per client, driven by an actor of its own.
public final class SyncplayGatewayServer: Sendable {
    /// How often each connection's core is ticked (its states go out once a second).
    static let tickInterval = 0.25

    private let channel: any Channel
    private let connections: Registry

    public var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel, connections: Registry) {
        self.channel = channel
        self.connections = connections
    }

    /// Listens on `host:port` (0: any free port). `passwordDigest`: the MD5 hex clients must give.
    public static func start(host: String, port: Int, passwordDigest: String?, room: any SyncplayRoomHost) async throws -> SyncplayGatewayServer {
        let connections = Registry()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                let connection = SyncplayGatewayConnection(channel: child, core: SyncplayServerCore(passwordDigest: passwordDigest), room: room)
                connections.add(connection)
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(SyncplayLineHandler(maxLineBytes: SyncplayCodec.maxLineBytes) { event in
                        connection.deliver(event)
                    })
                }
            }
            .bind(host: host, port: port).get()
        return SyncplayGatewayServer(channel: channel, connections: connections)
    }

    /// The room changed (a pause, resume or seek): every client is forced to it.
    public func roomChanged(doSeek: Bool) async {
        for connection in connections.all { await connection.force(doSeek: doSeek) }
    }

    public func stop() async {
        try? await channel.close()
        for connection in connections.all { connection.close() }
    }

    private final class Registry: Sendable {
        private let list = Mutex<[SyncplayGatewayConnection]>([])
        func add(_ connection: SyncplayGatewayConnection) { list.withLock { $0.append(connection) } }
        var all: [SyncplayGatewayConnection] { list.withLock { $0 } }
    }
}

/// One Syncplay client of the gateway: its events in order, its core, its ticks.
final class SyncplayGatewayConnection: Sendable {
    private let channel: any Channel
    private let events: AsyncStream<SyncplayConnection.Event>.Continuation
    private let driver: Driver

    init(channel: any Channel, core: SyncplayServerCore, room: any SyncplayRoomHost) {
        self.channel = channel
        let (stream, events) = AsyncStream.makeStream(of: SyncplayConnection.Event.self)
        self.events = events
        let driver = Driver(channel: channel, core: core, room: room)
        self.driver = driver
        Task { await driver.run(stream) }
    }

    func deliver(_ event: SyncplayConnection.Event) {
        events.yield(event)
        if event == .closed { events.finish() }
    }

    func force(doSeek: Bool) async { await driver.force(doSeek: doSeek) }

    func close() { channel.close(promise: nil) }

    private actor Driver {
        let channel: any Channel
        var core: SyncplayServerCore
        let room: any SyncplayRoomHost
        let clock = MonotonicTimeSource()

        init(channel: any Channel, core: SyncplayServerCore, room: any SyncplayRoomHost) {
            self.channel = channel
            self.core = core
            self.room = room
        }

        func run(_ events: AsyncStream<SyncplayConnection.Event>) async {
            let ticker = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(SyncplayGatewayServer.tickInterval * 1e9))
                    await self?.tick()
                }
            }
            for await event in events {
                guard case .line(let bytes) = event else { continue }
                do throws(SyncplayProtocolError) {
                    for message in try SyncplayCodec.decode(bytes) {
                        let state = await room.room()
                        await perform(core.receive(message, now: clock.now(), room: state))
                    }
                } catch {
                    await perform([.send(.error("bad line: \(error)")), .close("bad line")])
                }
            }
            ticker.cancel()
            if core.phase == .inRoom { await room.left(core.name) }
        }

        func tick() async {
            let state = await room.room()
            await perform(core.tick(now: clock.now(), room: state))
        }

        func force(doSeek: Bool) async {
            let state = await room.room()
            await perform(core.force(state, doSeek: doSeek, now: clock.now()))
        }

        private func perform(_ actions: [SyncplayServerCore.Action]) async {
            for action in actions {
                switch action {
                case .send(let message):
                    channel.writeAndFlush(channel.allocator.buffer(string: SyncplayCodec.encodeLine(message)), promise: nil)
                case .join(let name, let roomName):
                    let given = await room.join(name: name, room: roomName)
                    let state = await room.room()
                    await perform(core.welcome(name: given, room: roomName, now: clock.now(), state: state))
                case .request(let request):
                    if !(await room.request(request, from: core.name)) { await force(doSeek: true) }
                case .chat(let text):
                    await room.chat(text, from: core.name)
                case .listRequested:
                    await perform(core.list(SyncplayUserList(entries: [])))
                case .setReady, .file:
                    break
                case .close:
                    channel.close(promise: nil)
                }
            }
        }
    }
}
