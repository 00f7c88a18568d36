import TandemBase
import TandemApp
import ArgumentParser
import Foundation
import PartyService

/// `tandem serve`: its options and their checks; what it runs is ``ServeApplication`` (PartyService),
/// from the settings these options give with the environment and the config file.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a party server (many parties at once) until interrupted.",
        discussion: """
            Settings come from these options, then TANDEM_* environment variables (TANDEM_LISTEN, \
            TANDEM_ADMIN_LISTEN, TANDEM_LOG_LEVEL, TANDEM_CACHE_SIZE, …), then --config FILE (JSON: \
            {"listen": "0.0.0.0:7777", "admin": {"listen": "127.0.0.1:9777"}, "log": {"level": "info"}}). \
            Listening on a LAN address, it asks the router to forward a port to it (PCP, NAT-PMP, \
            UPnP) and prints the internet address, then the LAN address; the mapping is deleted when \
            it stops. SIGTERM drains: /healthz answers 503, members are told the server is restarting, and the \
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
    @Flag(name: .customLong("no-port-mapping"), help: "Do not ask the router to forward a port to this server (PCP, NAT-PMP, UPnP).")
    var noPortMapping = false
    @Option(name: .customLong("public-address"),
            help: ArgumentHelp("Where hosts on the internet dial when you forwarded a port by hand (then no port mapping); default port: the listen port.",
                               valueName: "host[:port]"))
    var publicAddress: String?
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
        if noPortMapping { o["port.mapping"] = "false" }
        o["public.address"] = publicAddress
        o["cluster.url"] = cluster
        o["cluster.node"] = nodeID
        o["cluster.address"] = nodeAddress?.description
        o["cluster.lease"] = clusterLease.map { "\($0)" }
        return o
    }

    func run() async throws {
        do {
            let settings = try await ServiceSettings.resolve(options: givenOptions, environment: ProcessInfo.processInfo.environment,
                                                             configFile: config)
            let application = try ServeApplication(settings: settings, duration: duration,
                                                   say: { FileHandleOutput.standardOutput.write($0 + "\n") }, warn: { printError($0) })
            try await application.run()
        } catch {
            // A setting, a port, a certificate, the cluster's database: one line, exit 1.
            printError("\(error)")
            throw ExitCode.failure
        }
    }
}
