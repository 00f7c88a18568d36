import Logging
import PartyKit
import PartyServer
import ServiceLifecycle
import WebSocketTransport
@testable import PartyService

/// The setup of the service's drain tests, on real loopback sockets: a party server, its admin
/// port, and a host member over a WebSocket who created party `p` and was welcomed. ``run(drainSeconds:logger:drainBegins:)``
/// then runs the drain over them in a `ServiceGroup`, as `tandem serve` does.
struct PartyServiceFixture {
    static let party = "p"

    let server: PartyServerRunner
    let port: Int
    let metrics: ServerMetrics
    let admin: AdminServer
    let adminPort: Int
    /// The member who created the party.
    let host: WebSocketConnection
    /// What the host heard after its welcome.
    var inbound: AsyncStream<InboundMessage>.Iterator
    /// Whether the host's first message was its welcome.
    let welcomed: Bool

    static func start(logger: Logger) async throws -> PartyServiceFixture {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: logger)
        let port = try await server.start()
        let metrics = ServerMetrics()
        let admin = AdminServer(metrics: metrics, logger: logger)
        let adminPort = try await admin.start(host: "127.0.0.1", port: 0)
        let host = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/\(party)", logger: logger)
        let item = MediaItem(title: "party.mp4", identity: MediaIdentity(bytes: 1, duration: 60, streams: ["video"]))
        host.send(PartyProtocol.encode(.hello(Hello(party: party, key: "k", name: "h", create: PartyConfig(items: [item])))))
        var inbound = host.inbound.makeAsyncIterator()
        let welcomed = await inbound.next()?.text.contains("welcome") == true
        return PartyServiceFixture(server: server, port: port, metrics: metrics, admin: admin, adminPort: adminPort, host: host,
                                   inbound: inbound, welcomed: welcomed)
    }

    /// Runs the drain over the server and admin port until a graceful shutdown of the returned group
    /// has drained it and stopped them (the task then ends). The parts are already listening: their
    /// services only stop them, in the group's order (``ServeApplication``'s, without the gateway).
    func run(drainSeconds: Double, logger: Logger, drainBegins: @escaping @Sendable () async -> Void = {})
        -> (group: ServiceGroup, running: Task<Void, any Error>) {
        let (server, port, admin, adminPort) = (server, port, admin, adminPort)
        let services: [any Service] = [
            ListeningService<Int>("admin port", logger: logger, start: { adminPort }, stop: { _ in await admin.stop() }),
            ListeningService<Int>("party port", logger: logger, start: { port }, stop: { _ in await server.stop() }),
            PartyServerService(server: server, admin: admin, metrics: metrics, drainSeconds: drainSeconds, logger: logger,
                               drainBegins: drainBegins),
        ]
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        let running = Task { try await group.run() }
        return (group, running)
    }
}
