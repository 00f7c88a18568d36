import Logging
import PartyServer
import ServiceLifecycle

/// The drain of `tandem serve`, as a service under swift-service-lifecycle. While the server runs it
/// keeps the metrics' gauges current; at its graceful shutdown (SIGTERM, SIGINT, the end of
/// `--duration`: the first the group shuts down, before the parts it drains) it drains — what else
/// brings members stops first (``drainBegins``: the Syncplay gateway stops listening), `/healthz`
/// turns 503, a cluster node saves and releases its parties, every member is told the server is
/// restarting (members keep their seats' tokens and reconnect; hosts re-create their parties where
/// they land) — and waits up to `drainSeconds` for them to go. Then it returns, and the group stops
/// the parts before it in reverse order: the gateway, the party port, the admin port, the cluster node.
/// Cancelled (another part failed), it returns at once without a drain.
public struct PartyServerService: Service, CustomStringConvertible {
    /// How often the gauges are refreshed from the server's counts (a scrape every 15 s is usual).
    static let refreshInterval = Duration.seconds(1)
    /// How often a drain checks whether every member has gone.
    static let drainPoll = Duration.milliseconds(50)
    /// What members are told when the server drains.
    public static let restartingMessage = "the server is restarting"

    public let description = "drain"
    let server: PartyServerRunner
    let admin: AdminServer?
    let metrics: ServerMetrics
    let drainSeconds: Double
    let logger: Logger
    /// Run first when the drain begins: what else brings members to the server stops (the Syncplay
    /// gateway stops listening).
    let drainBegins: @Sendable () async -> Void

    public init(server: PartyServerRunner, admin: AdminServer?, metrics: ServerMetrics, drainSeconds: Double,
                logger: Logger, drainBegins: @escaping @Sendable () async -> Void = {}) {
        self.server = server
        self.admin = admin
        self.metrics = metrics
        self.drainSeconds = drainSeconds
        self.logger = logger
        self.drainBegins = drainBegins
    }

    public func run() async throws {
        await server.observe(with: metrics)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await gracefulShutdown() }
            group.addTask {
                while !Task.isCancelled {
                    await refresh(draining: false)
                    try? await Task.sleep(for: Self.refreshInterval)
                }
            }
            await group.next()
            group.cancelAll()
        }
        // Cancelled rather than shut down: the group is ending without a drain.
        guard !Task.isCancelled else { return }
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
            do { try await Task.sleep(for: Self.drainPoll) } catch { break }  // cancelled: stop waiting
        }
        let left = await server.memberCount
        logger.info("drained", metadata: ["members": "\(left)"])
    }
}
