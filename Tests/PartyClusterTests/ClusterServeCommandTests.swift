import Foundation
import PartyCluster
import PartyKit

import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `tandem serve --cluster` as the built binary: a database down at start, and a node SIGKILLed
/// under a party.
@Suite(.serialized, .usingTheDatabase) struct ClusterServeCommandTests {
    /// A `tandem serve` process; its standard output awaited line by line.
    final class Serve: Sendable {
        let process: ChildProcess
        let stateDir: URL
        /// Its standard error, when it goes to a file (``init(_:logToFile:)``).
        let log: URL?

        init(_ arguments: [String], logToFile: Bool = false) throws {
            stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cluster-\(UUID().uuidString)")
            log = logToFile ? stateDir.appendingPathExtension("log") : nil
            process = try ChildProcess.tandem(["serve", "--insecure", "--listen", "127.0.0.1:0", "--cache-size", "0",
                                               "--state-dir", stateDir.path] + arguments,
                                              standardError: log.map { ChildProcess.Output.file($0.path) } ?? .capture)
        }

        /// The first line of its output starting with `prefix`.
        func line(startingWith prefix: String) async throws -> String {
            try await process.line(startingWith: prefix, within: 60)
        }

        /// Kills it (if it still runs) and removes its files.
        func stop() {
            process.kill()
            try? FileManager.default.removeItem(at: stateDir)
            if let log { try? FileManager.default.removeItem(at: log) }
        }

        /// The last lines of its log file.
        var logTail: String {
            guard let log, let text = try? String(contentsOf: log, encoding: .utf8) else { return "" }
            return text.split(separator: "\n").suffix(40).joined(separator: "\n")
        }
    }

    @Test func aDatabaseDownAtStartIsOneClearErrorAndExitOne() async throws {
        let port = try LoopbackPort.free()
        let serve = try Serve(["--cluster", "postgres://tandem:hunter2@127.0.0.1:\(port)/tandem"])
        defer { serve.stop() }
        #expect(try await serve.process.exit(within: 60) == .exited(1))
        let stderr = serve.process.standardError
        // Tandem's own lines (log lines, at info level, say what started and stopped).
        let lines = stderr.split(separator: "\n").filter { $0.hasPrefix("tandem: ") && !$0.hasPrefix("tandem: WARNING: --insecure") }
        #expect(lines.count == 1, "\(stderr)")
        #expect(lines.first?.hasPrefix("tandem: cluster postgres://tandem:***@127.0.0.1:\(port)/tandem: cannot reach the cluster database at 127.0.0.1:\(port): ") == true, "\(stderr)")
        #expect(!stderr.contains("hunter2"))
    }

    @Test func aBadClusterURLIsAClearError() async throws {
        let serve = try Serve(["--cluster", "mysql://x@y/z"])
        defer { serve.stop() }
        #expect(try await serve.process.exit(within: 60) == .exited(1))
        let stderr = serve.process.standardError
        #expect(stderr.contains("cluster URL: the scheme must be postgres:// or postgresql://"), "\(stderr)")
    }

    /// Two real nodes; the owner of a party is SIGKILLed: the host and guest (in this process) are
    /// back in the party on the other node, with its epoch continuing, within the issue's bound.
    @Test(.enabled(if: TestDatabase.available, TestDatabase.skipReason))
    func aSIGKILLedNodesPartyMovesToTheOtherNode() async throws {
        let url = try #require(TestDatabase.environment["TANDEM_TEST_POSTGRES"])
        // b first: a, starting once b is registered, lists b in its welcomes from the start.
        let b = try Serve(["--cluster", url, "--cluster-lease", "3", "--node-id", TestDatabase.unique("proc-b")],
                      logToFile: true)
        defer { b.stop() }
        func port(_ serve: Serve) async throws -> Int {
            let line = try await serve.line(startingWith: "listening on ")
            return try #require(Int(line.split(separator: ":").last ?? ""))
        }
        _ = try await port(b)
        _ = try await b.line(startingWith: "cluster node ")
        let a = try Serve(["--cluster", url, "--cluster-lease", "3", "--node-id", TestDatabase.unique("proc-a")],
                      logToFile: true)
        defer { a.stop() }
        let portA = try await port(a)
        _ = try await a.line(startingWith: "cluster node ")
        let party = TestDatabase.unique("sigkill")
        let link = PartyLink(host: "127.0.0.1", port: portA, party: party, key: ClusterServeTests.key, insecure: true)
        let hostNotices = TestMembers.Notices(), guestNotices = TestMembers.Notices()
        let host = TestMembers.member(link, name: "Hana", create: try TestMembers.config(), notices: hostNotices)
        let guest = TestMembers.member(link, name: "Gus", notices: guestNotices)
        let hostRun = Task { await host.run() }
        try await waitUntil("the host is in", within: .seconds(60), every: .milliseconds(100)) { await host.status.me != nil }
        let guestRun = Task { await guest.run() }
        try await waitUntil("the guest is synced", within: .seconds(60), every: .milliseconds(100)) { await guest.status.synced }
        await host.request(.play)
        try await waitUntil("the party plays", within: .seconds(60), every: .milliseconds(100)) { await guest.status.playing }
        // Killed once a saved the playing epoch (a kill right after a command can lose the command:
        // a node saves on its next tick, every 0.25 s).
        let directoryURL = try #require(TestDatabase.url)
        try await ClusterDirectory.withDirectory(url: directoryURL, configuration: TestDatabase.node("probe")) { directory in
            try await waitUntil("a saved the playing epoch", within: .seconds(60), every: .milliseconds(100)) {
                ((try? await directory.restore(party: party))?.timeline.playing) == true
            }
        }

        let killed = ContinuousClock.now
        a.process.kill()
        var recovered = false
        let lastGuestStatus = Mutex("")
        defer {
            if !recovered {
                Issue.record("b's log:\n\(b.logTail)\nguest: \(guestNotices.all)\nhost: \(hostNotices.all)\nguest status: \(lastGuestStatus.withLock { $0 })")
            }
        }
        try await waitUntil("host and guest welcomed by b, the guest in sync", within: ClusterServeTests.recoveryBound, every: .milliseconds(100)) {
            let g = await guest.status
            lastGuestStatus.withLock { $0 = "\(g)" }
            guard ClusterServeTests.welcomes(hostNotices) == 2, ClusterServeTests.welcomes(guestNotices) == 2 else { return false }
            return g.connected && g.synced && g.playing
        }
        recovered = true
        print("cluster SIGKILL: the guest was back in sync \(ContinuousClock.now - killed) after the kill")
        await guest.leave()
        _ = await guestRun.value
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await guest.shutDown()
    }
}
