import TandemBase
import TandemApp
import ArgumentParser
import Foundation
import Synchronization
import Logging
import PartyCluster
import PartyKit
import PartySecurity
import PartyServer
import PartyService
import ServiceLifecycle
import SyncplayGateway

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a party server (many parties at once) until interrupted.",
        discussion: """
            Settings come from these options, then TANDEM_* environment variables (TANDEM_LISTEN, \
            TANDEM_ADMIN_LISTEN, TANDEM_LOG_LEVEL, TANDEM_CACHE_SIZE, …), then --config FILE (JSON: \
            {"listen": "0.0.0.0:7777", "admin": {"listen": "127.0.0.1:9777"}, "log": {"level": "info"}}). \
            SIGTERM drains: /healthz answers 503, members are told the server is restarting, and the \
            server waits --drain-seconds for them to leave. With --cluster postgres://… several nodes \
            share their parties through PostgreSQL: a member that dials any node is sent to its \
            party's node, and a dead node's parties move to a live one. See docs/service.md.
            """
    )

    @Option(help: ArgumentHelp("JSON config file (see the discussion below).", valueName: "file")) var config: String?
    @Option(help: "Address to listen on (default 0.0.0.0:7777).") var listen: HostPort?
    @Option(name: .customLong("admin-listen"), help: "Admin address for /healthz and /metrics (default: none).")
    var adminListen: HostPort?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?
    @Option(help: "Stop after this many seconds (for scripts and tests), draining as for SIGTERM.") var duration: Double?
    @Option(name: .customLong("drain-seconds"), help: "How long SIGTERM waits for members to leave (default 5).")
    var drainSeconds: Double?
    @Option(name: .customLong("cache-dir"), help: "Folder for relayed media chunks (default $XDG_CACHE_HOME/tandem/relay).")
    var cacheDir: String?
    @Option(name: .customLong("cache-size"), help: "Cap of the relay's disk cache in MB (0: memory only; default 2048).")
    var cacheSize: Int?
    @Option(help: SyncplayGatewayOption.help) var syncplay: SyncplayGatewayOption?
    @Option(help: ArgumentHelp("Be a node of a cluster whose directory is this PostgreSQL database.",
                               valueName: "postgres://USER[:PASS]@HOST[:PORT]/DB"))
    var cluster: String?
    @Option(name: .customLong("node-id"), help: "This node's name in the cluster (default: host name and port).")
    var nodeID: String?
    @Option(name: .customLong("node-address"),
            help: "Where other nodes send members to this one (default: the listen address, or the host name and port).")
    var nodeAddress: HostPort?
    @Option(name: .customLong("cluster-lease"), help: "Seconds a dead node's parties wait before another node takes them (default 10).")
    var clusterLease: Double?
    @OptionGroup var security: SecurityOptions
    @OptionGroup var serving: ServingOptions

    func validate() throws {
        if security.insecure, serving.cert != nil { throw ValidationError("--insecure and --cert contradict each other") }
    }

    /// The options given, by settings key: they win over the environment and the file.
    private var givenOptions: [String: String] {
        var o: [String: String] = [:]
        o["listen"] = listen?.description
        o["admin.listen"] = adminListen?.description
        o["log.level"] = logLevel
        o["drain.seconds"] = drainSeconds.map { "\($0)" }
        o["cache.dir"] = cacheDir
        o["cache.size"] = cacheSize.map { "\($0)" }
        o["cert"] = serving.cert
        o["cert.key"] = serving.certKey
        o["state.dir"] = security.stateDir
        if security.insecure { o["insecure"] = "true" }
        o["syncplay"] = syncplay?.description
        o["cluster.url"] = cluster
        o["cluster.node"] = nodeID
        o["cluster.address"] = nodeAddress?.description
        o["cluster.lease"] = clusterLease.map { "\($0)" }
        return o
    }

    func run() async throws {
        let settings: ServiceSettings
        do {
            settings = try await ServiceSettings.resolve(options: givenOptions, environment: ProcessInfo.processInfo.environment,
                                                         configFile: config)
        } catch {
            printError("\(error)")
            throw ExitCode.failure
        }
        guard let listen = HostPort(parsing: settings.listen) else {
            printError("listen must be HOST:PORT, not \"\(settings.listen)\"")
            throw ExitCode.failure
        }
        var admin: HostPort?
        if let text = settings.adminListen {
            guard let a = HostPort(parsing: text) else {
                printError("admin.listen must be HOST:PORT, not \"\(text)\"")
                throw ExitCode.failure
            }
            admin = a
        }
        if (settings.cert == nil) != (settings.certKey == nil) {
            printError("cert and cert.key go together")
            throw ExitCode.failure
        }
        if settings.insecure, settings.cert != nil {
            printError("insecure and cert contradict each other")
            throw ExitCode.failure
        }
        var gatewayOption: SyncplayGatewayOption?
        if let text = settings.syncplay {
            guard let option = SyncplayGatewayOption(argument: text) else {
                printError("syncplay must be [HOST:]PORT, not \"\(text)\"")
                throw ExitCode.failure
            }
            gatewayOption = option
        }
        var logger = Logger(label: "tandem.serve")
        logger.logLevel = settings.logLevel
        var disk: RelayDiskCache?
        if settings.cacheSizeMB > 0 {
            let folder = settings.cacheDir ?? RelayDiskCache.defaultDirectory()
            do {
                disk = try RelayDiskCache(directory: folder, capacityBytes: Int64(settings.cacheSizeMB) << 20)
            } catch {
                printError("cannot use the cache folder \(folder): \(error)")
                throw ExitCode.failure
            }
        }
        if settings.insecure {
            printError("WARNING: --insecure: no TLS; the party key, chat and media cross the network unencrypted")
        }
        var identity: ServerIdentity?
        if !settings.insecure {
            do {
                if let cert = settings.cert, let key = settings.certKey {
                    identity = try ServerIdentity.load(certificateFile: cert, keyFile: key)
                } else {
                    identity = try ServerIdentity.loadOrCreate(in: StateDirectory(path: settings.stateDir ?? StateDirectory.defaultPath()))
                }
            } catch {
                printError("\(error)")
                throw ExitCode.failure
            }
        }
        let server: PartyServerRunner
        do {
            server = PartyServerRunner(host: listen.host, port: listen.port,
                                       media: PartyMediaLibrary(relay: MediaRelay(disk: disk)),
                                       tls: try identity?.makeServerContext(), logger: logger)
        } catch {
            printError("\(error)")
            throw ExitCode.failure
        }
        // A cluster node takes no hello before it has joined (a retryable error: members with a seat try again, a new one is told to).
        if settings.clusterURL != nil { await server.awaitCluster() }
        let port: Int
        do {
            port = try await server.start()
        } catch {
            printError("cannot listen on \(listen): \(error)")
            throw ExitCode.failure
        }
        FileHandleOutput.standardOutput.write("listening on \(HostPort(host: listen.host, port: port))\n")
        if let identity {
            // Hosts pin this (`tandem host --server HOST:PORT --server-fp FP`), or trust it on first use.
            FileHandleOutput.standardOutput.write("fingerprint \(identity.fingerprint)\n")
        }
        let metrics = ServerMetrics()
        var adminServer: AdminServer?
        if let admin {
            let a = AdminServer(metrics: metrics, logger: logger)
            do {
                let adminPort = try await a.start(host: admin.host, port: admin.port)
                FileHandleOutput.standardOutput.write("admin listening on \(HostPort(host: admin.host, port: adminPort))\n")
            } catch {
                await server.stop()
                printError("cannot listen on \(admin) (admin): \(error)")
                throw ExitCode.failure
            }
            adminServer = a
        }
        let gateway: SyncplayGatewayServer?
        do { gateway = try await gatewayOption?.start(parties: server, identity: identity, defaultHost: listen.host, logger: logger) } catch {
            await adminServer?.stop()
            await server.stop()
            throw error
        }
        // The gateway stops taking Syncplay clients first, so that none lands in a server that is going
        // away; those in parties are told the server is restarting with every other member.
        let service = PartyServerService(server: server, admin: adminServer, metrics: metrics, drainSeconds: settings.drainSeconds,
                                         duration: duration, logger: logger, drainBegins: { await gateway?.stopListening() })
        let group = ServiceGroup(configuration: .init(services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        guard let clusterText = settings.clusterURL else {
            try await group.run()
            await gateway?.stop()
            return
        }
        let startedAdmin = adminServer
        let stopAll: @Sendable () async -> Void = {
            await gateway?.stop()
            await startedAdmin?.stop()
            await server.stop()
        }
        let url: ClusterDatabaseURL
        do { url = try ClusterDatabaseURL(parsing: clusterText) } catch {
            await stopAll()
            printError("\(error)")
            throw ExitCode.failure
        }
        var address: NodeAddress
        if let text = settings.clusterAddress {
            guard let given = HostPort(parsing: text) else {
                await stopAll()
                printError("cluster.address must be HOST:PORT, not \"\(text)\"")
                throw ExitCode.failure
            }
            address = NodeAddress(host: given.host, port: given.port)
        } else {
            let everywhere = ["0.0.0.0", "::", "[::]", ""].contains(listen.host)
            address = NodeAddress(host: everywhere ? ProcessInfo.processInfo.hostName : listen.host, port: port)
        }
        // A self-signed node is pinned by the members it is sent; a given certificate is verified.
        if settings.cert == nil { address.fingerprint = identity?.fingerprint }
        let node = settings.clusterNode ?? "\(ProcessInfo.processInfo.hostName):\(port)"
        do {
            try await ClusterNode.run(url: url, nodeID: node, address: address,
                                      leaseLength: .milliseconds(Int64(settings.clusterLeaseSeconds * 1000)), logger: logger) { cluster in
                await server.joinCluster(cluster)
                FileHandleOutput.standardOutput.write("cluster node \(node) at \(address)\n")
                try await group.run()
            }
        } catch let error as ClusterDirectoryError {
            await stopAll()
            printError("cluster \(url): \(error)")
            throw ExitCode.failure
        }
        await gateway?.stop()
    }
}

