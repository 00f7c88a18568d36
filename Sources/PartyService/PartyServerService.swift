import Logging
import PartyServer
import ServiceLifecycle

/// `tandem serve` as a service under swift-service-lifecycle: it keeps the metrics' gauges current,
/// and on a graceful shutdown (SIGTERM) drains — `/healthz` turns 503, every member is told the
/// server is restarting (members keep their seats' tokens and reconnect; hosts re-create their
/// parties where they land), and the server waits up to `drainSeconds` for them to go before it
/// closes what is left.
public struct PartyServerService: Service {
    /// How often the gauges are refreshed from the server's counts (a scrape every 15 s is usual).
    static let refreshInterval = Duration.seconds(1)
    /// How often a drain checks whether every member has gone.
    static let drainPoll = Duration.milliseconds(50)
    /// What members are told when the server drains.
    public static let restartingMessage = "the server is restarting"

    let server: PartyServerRunner
    let admin: AdminServer?
    let metrics: ServerMetrics
    let drainSeconds: Double
    /// Stop by itself after this many seconds (scripts and tests), draining as for a SIGTERM.
    let duration: Double?
    let logger: Logger
    /// Run first when the drain begins: what else brings members to the server stops (the Syncplay
    /// gateway stops listening).
    let drainBegins: @Sendable () async -> Void

    public init(server: PartyServerRunner, admin: AdminServer?, metrics: ServerMetrics, drainSeconds: Double,
                duration: Double?, logger: Logger, drainBegins: @escaping @Sendable () async -> Void = {}) {
        self.server = server
        self.admin = admin
        self.metrics = metrics
        self.drainSeconds = drainSeconds
        self.duration = duration
        self.logger = logger
        self.drainBegins = drainBegins
    }

    public func run() async throws {
        await server.observe(with: metrics)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await gracefulShutdown() }
            if let duration { group.addTask { try? await Task.sleep(for: .seconds(duration)) } }
            group.addTask {
                while !Task.isCancelled {
                    await refresh(draining: false)
                    try? await Task.sleep(for: Self.refreshInterval)
                }
            }
            await group.next()
            group.cancelAll()
        }
        await drain()
    }

    private func refresh(draining: Bool) async {
        metrics.set(parties: await server.partyCount, members: await server.memberCount, draining: draining)
        metrics.relayed(totalBytes: server.media.relay.uploadedBytes)
    }

    private func drain() async {
        let members = await server.memberCount
        logger.info("draining", metadata: ["members": "\(members)", "seconds": "\(drainSeconds)"])
        await drainBegins()
        admin?.startDraining()
        await refresh(draining: true)
        // In a cluster: parties saved and released first, so members' reconnects land on another node.
        await server.drainCluster()
        await server.tellEveryone(shuttingDown: Self.restartingMessage)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(drainSeconds)
        while clock.now < deadline, await server.memberCount > 0 {
            try? await Task.sleep(for: Self.drainPoll)
        }
        await server.stop()
        await admin?.stop()
        logger.info("stopped")
    }
}
