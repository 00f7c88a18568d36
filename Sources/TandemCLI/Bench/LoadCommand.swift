import TandemBase
import TandemBench
import TandemApp
import ArgumentParser
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension BenchCommand {
    /// `tandem bench load`: many members in many parties over real WebSockets against one party server,
    /// each behaving like a real member; reports pong round trips, command fan-out, and the server's CPU
    /// and memory per member and per message. Starts its own `tandem serve` unless given `--server`.
    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load",
            abstract: "N members in M parties against a party server: round trips, fan-out, server CPU and memory per member.")

        @Option(help: "Members in all (hosts included).") var members = 1000
        @Option(help: "Parties; each gets an equal share of the members, the first of them its host.") var parties = 100
        @Option(help: "Seconds measured, after every member has joined and settled.") var duration = 30.0
        @Option(name: .customLong("warm-up"), help: "Seconds between the last join and the window (join bursts end).")
        var warmUp = 5.0
        @Option(name: .customLong("join-rate"), help: "Members joining per second (each joins with a burst of time pings, then pings 10 a second until its clock has converged).")
        var joinRate = LoadRun.defaultJoinRate
        @Option(help: "Longest wait after the warm-up for the members' clocks to settle (their time pings backed off, as a member's do a minute into a party) before the window; 0: measure at once.")
        var settle = 90.0
        @Flag(help: "Plain ws:// (the server started with --insecure too); default TLS, pinned.") var insecure = false
        @Option(help: "A running server (HOST:PORT) instead of starting one; needs --server-pid.") var server: HostPort?
        @Option(name: .customLong("server-pid"), help: "The process id of --server, whose CPU and memory are read from /proc.")
        var serverPID: Int32?
        @Option(name: .customLong("server-fp"), help: "The fingerprint of --server (its `fingerprint` line); needed unless --insecure.")
        var serverFingerprint: String?
        @Flag(help: "One JSON line instead of a table.") var json = false

        func validate() throws {
            guard members >= 1, parties >= 1, members >= parties else {
                throw ValidationError("--members must be at least --parties (every party needs its host), both positive")
            }
            guard joinRate > 0 else { throw ValidationError("--join-rate must be positive") }
            guard duration > 0, warmUp >= 0, settle >= 0 else {
                throw ValidationError("--duration must be positive, --warm-up and --settle not negative")
            }
            if server != nil {
                guard serverPID != nil else { throw ValidationError("--server needs --server-pid (its CPU is what is measured)") }
                guard insecure || serverFingerprint != nil else {
                    throw ValidationError("--server needs --server-fp (the fingerprint it printed), or --insecure")
                }
            } else if serverPID != nil || serverFingerprint != nil {
                throw ValidationError("--server-pid and --server-fp go with --server")
            }
        }

        func run() async throws {
            // Each member is a socket here (and one more in a server started here, which inherits this limit).
            try Self.raiseDescriptorLimit(needed: members + Self.spareDescriptors)
            let target: LoadServer
            if let server, let serverPID {
                target = LoadServer(host: server.host, port: server.port, pid: serverPID, fingerprint: insecure ? nil : serverFingerprint)
            } else {
                target = try LoadServer.start(insecure: insecure)
            }
            defer { target.stop() }
            let idleRSS: Int? = if server == nil { try LoadProcessUsage.read(pid: target.pid).residentBytes } else { nil }
            var logger = Logger(label: "tandem.bench.load")
            logger.logLevel = .warning
            let summary = try await LoadRun(members: members, parties: parties, joinRate: joinRate, warmUp: warmUp, settle: settle, duration: duration,
                                        logger: logger)
                .run(server: target, idleRSS: idleRSS)
            if json {
                JSONLineWriter.standardOutput.emit(summary)
            } else {
                print(summary.text)
            }
        }

        /// Descriptors kept beyond one per member: standard streams, the event loops' own, log files.
        static let spareDescriptors = 64

        /// Raises the soft limit on open files to the hard one; fails clearly if `needed` is beyond it.
        static func raiseDescriptorLimit(needed: Int) throws {
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
            if limit.rlim_cur < limit.rlim_max {
                limit.rlim_cur = limit.rlim_max
                _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            }
            guard needed <= Int(clamping: limit.rlim_cur) else {
                throw BenchError("\(needed) open files are needed but the limit is \(limit.rlim_cur) (raise it with ulimit -n)")
            }
        }
    }
}
