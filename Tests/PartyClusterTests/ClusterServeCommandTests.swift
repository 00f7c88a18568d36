import Foundation
import PartyCluster
import PartyKit

import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `tandem serve --cluster` as the built binary: a database down at start, and a node SIGKILLed
/// under a party.
@Suite(.serialized) struct ClusterServeCommandTests {
    /// The `tandem` executable next to the test bundle, else the debug build.
    static func binary() throws -> URL {
        let root = URL(fileURLWithPath: TestMembers.media).deletingLastPathComponent()
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem"),
                          root.appendingPathComponent(".build/debug/tandem")]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                            "no built tandem binary: build with `swift build --build-tests` first")
    }

    /// A `tandem serve` process; its standard output read line by line.
    final class Serve: @unchecked Sendable {
        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        let stateDir: URL
        /// Its standard error, when it goes to a file (``init(_:logTo:)``).
        let log: URL?

        init(_ arguments: [String], logToFile: Bool = false) throws {
            stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cluster-\(UUID().uuidString)")
            log = logToFile ? stateDir.appendingPathExtension("log") : nil
            process.executableURL = try ClusterServeCommandTests.binary()
            process.arguments = ["serve", "--insecure", "--listen", "127.0.0.1:0", "--cache-size", "0",
                                 "--state-dir", stateDir.path] + arguments
            process.standardOutput = output
            if let log {
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
                process.standardError = try FileHandle(forWritingTo: log)
            } else {
                process.standardError = errors
            }
            try process.run()
        }

        /// The next line of its output (nil at its end).
        func line() -> String? {
            var bytes = [UInt8]()
            while let chunk = try? output.fileHandleForReading.read(upToCount: 1), let b = chunk.first {
                if b == 0x0A { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(b)
            }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }

        /// Reads lines until one starts with `prefix`; returns it.
        func line(startingWith prefix: String) -> String? {
            while let l = line() { if l.hasPrefix(prefix) { return l } }
            return nil
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: stateDir)
            if let log { try? FileManager.default.removeItem(at: log) }
        }

        /// The last lines of its log file.
        var logTail: String {
            guard let log, let text = try? String(contentsOf: log, encoding: .utf8) else { return "" }
            return text.split(separator: "\n").suffix(40).joined(separator: "\n")
        }
    }

    @Test func aDatabaseDownAtStartIsOneClearErrorAndExitOne() throws {
        let port = try TestDatabase.closedPort()
        let serve = try Serve(["--cluster", "postgres://tandem:hunter2@127.0.0.1:\(port)/tandem"])
        let stderr = String(decoding: serve.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        serve.process.waitUntilExit()
        defer { serve.stop() }
        #expect(serve.process.terminationStatus == 1)
        // Tandem's own lines (log lines, at info level, say what started and stopped).
        let lines = stderr.split(separator: "\n").filter { $0.hasPrefix("tandem: ") && !$0.hasPrefix("tandem: WARNING: --insecure") }
        #expect(lines.count == 1, "\(stderr)")
        #expect(lines.first?.hasPrefix("tandem: cluster postgres://tandem:***@127.0.0.1:\(port)/tandem: cannot reach the cluster database at 127.0.0.1:\(port): ") == true, "\(stderr)")
        #expect(!stderr.contains("hunter2"))
    }

    @Test func aBadClusterURLIsAClearError() throws {
        let serve = try Serve(["--cluster", "mysql://x@y/z"])
        let stderr = String(decoding: serve.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        serve.process.waitUntilExit()
        defer { serve.stop() }
        #expect(serve.process.terminationStatus == 1)
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
        func port(_ serve: Serve) throws -> Int {
            let line = try #require(serve.line(startingWith: "listening on "), "serve printed no address")
            return try #require(Int(line.split(separator: ":").last ?? ""))
        }
        _ = try port(b)
        _ = try #require(b.line(startingWith: "cluster node "))
        let a = try Serve(["--cluster", url, "--cluster-lease", "3", "--node-id", TestDatabase.unique("proc-a")],
                      logToFile: true)
        defer { a.stop() }
        let portA = try port(a)
        _ = try #require(a.line(startingWith: "cluster node "))
        let party = TestDatabase.unique("sigkill")
        let link = PartyLink(host: "127.0.0.1", port: portA, party: party, key: ClusterServeTests.key, insecure: true)
        let hostNotices = TestMembers.Notices(), guestNotices = TestMembers.Notices()
        let host = TestMembers.member(link, name: "Hana", create: try TestMembers.config(), notices: hostNotices)
        let guest = TestMembers.member(link, name: "Gus", notices: guestNotices)
        let hostRun = Task { await host.run() }
        try await eventually("the host is in") { await host.status.me != nil }
        let guestRun = Task { await guest.run() }
        try await eventually("the guest is synced") { await guest.status.synced }
        await host.request(.play)
        try await eventually("the party plays") { await guest.status.playing }
        // Killed once a saved the playing epoch (a kill right after a command can lose the command:
        // a node saves on its next tick, every 0.25 s).
        let directoryURL = try #require(TestDatabase.url)
        try await ClusterDirectory.withDirectory(url: directoryURL, configuration: TestDatabase.node("probe")) { directory in
            try await eventually("a saved the playing epoch") {
                ((try? await directory.restore(party: party))?.timeline.playing) == true
            }
        }

        let killed = ContinuousClock.now
        kill(a.process.processIdentifier, SIGKILL)
        var recovered = false
        let lastGuestStatus = Mutex("")
        defer {
            if !recovered {
                Issue.record("b's log:\n\(b.logTail)\nguest: \(guestNotices.all)\nhost: \(hostNotices.all)\nguest status: \(lastGuestStatus.withLock { $0 })")
            }
        }
        try await eventually(within: ClusterServeTests.recoveryBound, "host and guest welcomed by b, the guest in sync") {
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
