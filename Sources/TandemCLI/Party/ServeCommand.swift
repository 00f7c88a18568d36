import ArgumentParser
import Foundation
import Logging
import PartyNet
import SyncplayNet

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a party server (many parties at once) until interrupted."
    )

    @Option(help: "Address to listen on.") var listen = HostPort(host: "0.0.0.0", port: 7777)
    @Option(help: "Stop after this many seconds (for scripts and tests).") var duration: Double?
    @Option(name: .customLong("cache-dir"), help: "Folder for relayed media chunks (default $XDG_CACHE_HOME/tandem/relay).")
    var cacheDir: String?
    @Option(name: .customLong("cache-size"), help: "Cap of the relay's disk cache in MB (0: memory only).")
    var cacheSize = Int(RelayDiskCache.defaultCapacityBytes >> 20)
    @Option(help: SyncplayGatewayOption.help) var syncplay: SyncplayGatewayOption?
    @OptionGroup var security: SecurityOptions
    @OptionGroup var serving: ServingOptions

    func validate() throws {
        if security.insecure, serving.cert != nil { throw ValidationError("--insecure and --cert contradict each other") }
    }

    func run() async throws {
        var logger = Logger(label: "tandem.serve")
        logger.logLevel = .info
        guard cacheSize >= 0 else {
            printError("--cache-size must be 0 or more MB, not \(cacheSize)")
            throw ExitCode.failure
        }
        var disk: RelayDiskCache?
        if cacheSize > 0 {
            let folder = cacheDir ?? RelayDiskCache.defaultDirectory()
            do {
                disk = try RelayDiskCache(directory: folder, capacityBytes: Int64(cacheSize) << 20)
            } catch {
                printError("cannot use the cache folder \(folder): \(error)")
                throw ExitCode.failure
            }
        }
        security.warnIfInsecure()
        var identity: ServerIdentity?
        if !security.insecure {
            do { identity = try serving.identity(security) } catch {
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
        let gateway = try await syncplay?.start(parties: server, defaultHost: listen.host, logger: logger)
        await waitForSignalOrTimeout(duration)
        await gateway?.stop()
        await server.stop()
    }
}

/// Returns on SIGINT or SIGTERM, or after `seconds`.
func waitForSignalOrTimeout(_ seconds: Double?) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await Signals.wait() }
        if let seconds { group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) } }
        await group.next()
        group.cancelAll()
    }
}

/// SIGINT/SIGTERM as an awaitable event.
enum Signals {
    static func wait() async {
        let stream = AsyncStream<Void> { continuation in
            signal(SIGINT, SIG_IGN)
            signal(SIGTERM, SIG_IGN)
            let sources = SignalSources([SIGINT, SIGTERM].map { sig in
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { continuation.yield() }
                source.resume()
                return source
            })
            continuation.onTermination = { _ in sources.cancel() }
        }
        for await _ in stream { return }
    }
}

/// Dispatch's signal sources are thread-safe but not marked Sendable; this box only cancels them.
private final class SignalSources: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
    func cancel() { sources.forEach { $0.cancel() } }
}
