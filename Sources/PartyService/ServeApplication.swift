import Foundation
import Logging
import PartyCluster
import PartyKit
import PartySecurity
import PartyServer
import PortMapping
import ServiceLifecycle
import SyncplayGateway
import TandemBase

/// `tandem serve` composed from its settings: every long-lived part is a swift-service-lifecycle
/// `Service`, and one `ServiceGroup` runs them all. Its graceful shutdown signals (SIGTERM, SIGINT)
/// or the end of `duration` shut the group down, each part after the parts that depend on it:
///
/// | # | service | starts | at the group's shutdown |
/// |---|---|---|---|
/// | 1 | second signal (``SecondSignalService``) | first: its signal sources | last; till then a second SIGINT/SIGTERM ends the process |
/// | 2 | cluster node (`cluster.url`) | joins once the others listen | after the admin port: leaves the directory |
/// | 3 | admin port (`admin.listen`) | listens after the party port | after the party port (503 through the drain) |
/// | 4 | party port (`listen`) | listens first | after the port mapping: closes what is left |
/// | 5 | port mapping (``PortMappingService``) | once the party port listens | after the gateway: deletes the router's mapping |
/// | 6 | Syncplay gateway (`syncplay`) | listens after the admin port | after the drain (which stopped its listening): closes its clients |
/// | 7 | drain (``PartyServerService``) | at once: keeps the gauges | first: drains |
/// | 8 | duration (`--duration`) | at once | when it is over, it shuts the group down |
///
/// Each listening part starts when the one before it listens, so the lines it prints keep their
/// order: `listening on HOST:PORT`, `fingerprint FP`, `admin listening on …`, `syncplay gateway on …`,
/// `cluster node ID at ADDRESS`. A part that cannot start (a port taken, the cluster's database down)
/// ends the group by cancellation: every part already listening stops, and ``run()`` throws that
/// part's ``ServeError``. The settings are checked, and the state and cache folders prepared, in
/// ``init(settings:duration:signals:logger:say:warn:)``, before anything listens.
public final class ServeApplication: Sendable {
    public let settings: ServiceSettings
    private let server: PartyServerRunner
    private let clustered: Bool
    private let group: ServiceGroup

    /// - Parameters:
    ///   - duration: Shut down by itself after this many seconds (scripts and tests), as on SIGTERM.
    ///   - signals: SIGTERM and SIGINT shut it down (and a second one ends the process); false in tests,
    ///     which shut it down with ``triggerGracefulShutdown()``.
    ///   - say: A line for standard output (where the parts listen).
    ///   - warn: A line for standard error (the `--insecure` warning).
    public init(settings: ServiceSettings, duration: Double? = nil, signals: Bool = true, logger: Logger? = nil,
                say: @escaping @Sendable (String) -> Void, warn: @escaping @Sendable (String) -> Void) throws(ServeError) {
        self.settings = settings
        guard let listen = HostPort(parsing: settings.listen) else {
            throw ServeError("listen must be HOST:PORT, not \"\(settings.listen)\"")
        }
        var adminAddress: HostPort?
        if let text = settings.adminListen {
            guard let a = HostPort(parsing: text) else { throw ServeError("admin.listen must be HOST:PORT, not \"\(text)\"") }
            adminAddress = a
        }
        if (settings.cert == nil) != (settings.certKey == nil) { throw ServeError("cert and cert.key go together") }
        if settings.insecure, settings.cert != nil { throw ServeError("insecure and cert contradict each other") }
        var gatewayAddress: SyncplayGatewayAddress?
        if let text = settings.syncplay {
            guard let a = SyncplayGatewayAddress(parsing: text) else { throw ServeError("syncplay must be [HOST:]PORT, not \"\(text)\"") }
            gatewayAddress = a
        }
        var publicAddress: PublicAddress?
        if let text = settings.publicAddress {
            do { publicAddress = try PublicAddress(parsing: text) } catch { throw ServeError("public.address: \(error)") }
        }
        var clusterURL: ClusterDatabaseURL?
        var clusterAddress: HostPort?
        if let text = settings.clusterURL {
            do { clusterURL = try ClusterDatabaseURL(parsing: text) } catch { throw ServeError("\(error)") }
            if let text = settings.clusterAddress {
                guard let given = HostPort(parsing: text) else { throw ServeError("cluster.address must be HOST:PORT, not \"\(text)\"") }
                clusterAddress = given
            }
        }
        var configured = logger ?? Logger(label: "tandem.serve")
        configured.logLevel = settings.logLevel
        let logger = configured
        var disk: RelayDiskCache?
        if settings.cacheSizeMB > 0 {
            let folder = settings.cacheDir ?? RelayDiskCache.defaultDirectory()
            do {
                disk = try RelayDiskCache(directory: folder, capacityBytes: Int64(settings.cacheSizeMB) << 20)
            } catch {
                throw ServeError("cannot use the cache folder \(folder): \(error)")
            }
        }
        if settings.insecure {
            warn("WARNING: --insecure: no TLS; the party key, chat and media cross the network unencrypted")
        }
        let identity: ServerIdentity?
        do {
            if settings.insecure {
                identity = nil
            } else if let cert = settings.cert, let key = settings.certKey {
                identity = try ServerIdentity.load(certificateFile: cert, keyFile: key)
            } else {
                identity = try ServerIdentity.loadOrCreate(in: StateDirectory(path: settings.stateDir ?? StateDirectory.defaultPath()))
            }
        } catch {
            throw ServeError("\(error)")
        }
        let server: PartyServerRunner
        do {
            server = PartyServerRunner(host: listen.host, port: listen.port, media: PartyMediaLibrary(relay: MediaRelay(disk: disk)),
                                       tls: try identity?.makeServerContext(), logger: logger)
        } catch {
            throw ServeError("\(error)")
        }
        self.server = server
        clustered = clusterURL != nil

        // The parts, in the group's order: each may depend on those before it; the group shuts them
        // down in reverse.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        var signalsInstalled: (@Sendable () async throws -> Void)?
        if signals {
            let second = SecondSignalService()
            services.append(.init(service: second))
            signalsInstalled = { [started = second.started] in try await started.wait() }
        }
        let partyPort = ListeningService<Int>("party port", after: signalsInstalled, logger: logger, start: {
            let port: Int
            do { port = try await server.start() } catch { throw ServeError("cannot listen on \(listen): \(error)") }
            say("listening on \(HostPort(host: listen.host, port: port))")
            if let identity {
                // Hosts pin this (`tandem host --server HOST:PORT --server-fp FP`), or trust it on first use.
                say("fingerprint \(identity.fingerprint)")
            }
            return port
        }, stop: { _ in await server.stop() })
        var last = partyPort.listening
        let metrics = ServerMetrics()
        var admin: (server: AdminServer, service: ListeningService<Int>)?
        if let adminAddress {
            let adminServer = AdminServer(metrics: metrics, logger: logger)
            let service = ListeningService<Int>("admin port", after: last, logger: logger, start: {
                let port: Int
                do { port = try await adminServer.start(host: adminAddress.host, port: adminAddress.port) } catch {
                    throw ServeError("cannot listen on \(adminAddress) (admin): \(error)")
                }
                say("admin listening on \(HostPort(host: adminAddress.host, port: port))")
                return port
            }, stop: { _ in await adminServer.stop() })
            admin = (adminServer, service)
            last = service.listening
        }
        var gateway: ListeningService<SyncplayGatewayServer>?
        if let gatewayAddress {
            let service = ListeningService<SyncplayGatewayServer>("syncplay gateway", after: last, logger: logger, start: {
                let started: (gateway: SyncplayGatewayServer, line: String)
                do {
                    started = try await SyncplayGatewayServer.start(at: gatewayAddress.resolved(defaultHost: listen.host), parties: server,
                                                                    identity: identity, logger: logger)
                } catch {
                    throw ServeError("\(error)")
                }
                say(started.line)
                return started.gateway
            }, stop: { gateway in await gateway.stop() })
            gateway = service
            last = service.listening
        }
        if let clusterURL {
            services.append(.init(service: ClusterNodeService(
                url: clusterURL, nodeID: settings.clusterNode, givenAddress: clusterAddress, listen: listen,
                fingerprint: settings.cert == nil ? identity?.fingerprint : nil,
                leaseLength: .milliseconds(Int64(settings.clusterLeaseSeconds * 1000)), server: server,
                partyPort: { [started = partyPort.started] in try await started.wait() }, after: last, say: say, logger: logger)))
        }
        if let admin { services.append(.init(service: admin.service)) }
        services.append(.init(service: partyPort))
        // Shut down after the drain and before the party port: the router stops sending new hosts
        // to a server that is going away.
        services.append(.init(service: PortMappingService(
            listen: listen, mapping: settings.portMapping, publicAddress: publicAddress,
            fingerprint: identity?.fingerprint,
            partyPort: { [started = partyPort.started] in try await started.wait() }, say: say, logger: logger)))
        if let gateway { services.append(.init(service: gateway)) }
        // The gateway stops taking Syncplay clients first, so that none lands in a server that is going
        // away; those in parties are told the server is restarting with every other member.
        let gatewayStarted = gateway?.started
        services.append(.init(service: PartyServerService(server: server, admin: admin?.server, metrics: metrics,
                                                          drainSeconds: settings.drainSeconds, logger: logger,
                                                          drainBegins: { await gatewayStarted?.current?.stopListening() })))
        if let duration {
            services.append(.init(service: ClosureService {
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(duration)) }
            }, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: "duration"))
        }
        group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: signals ? [.sigterm, .sigint] : [],
                                                  logger: logger))
    }

    /// Runs every part until the group is shut down (exit status 0) or a part fails (throws its
    /// ``ServeError``); every part has stopped when this returns.
    public func run() async throws {
        // A cluster node takes no hello before it has joined (a retryable error: members with a seat try
        // again, a new one is told to).
        if clustered { await server.awaitCluster() }
        try await group.run()
    }

    /// Shuts the parts down as SIGTERM does: the drain first.
    public func triggerGracefulShutdown() async { await group.triggerGracefulShutdown() }
}
