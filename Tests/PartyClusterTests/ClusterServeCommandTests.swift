import Foundation
import PartyCluster
import PartyKit
import PartyNet
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

        init(_ arguments: [String]) throws {
            stateDir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cluster-\(UUID().uuidString)")
            process.executableURL = try ClusterServeCommandTests.binary()
            process.arguments = ["serve", "--insecure", "--listen", "127.0.0.1:0", "--cache-size", "0",
                                 "--state-dir", stateDir.path] + arguments
            process.standardOutput = output
            process.standardError = errors
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
        }
    }

    @Test func aDatabaseDownAtStartIsOneClearErrorAndExitOne() throws {
        let port = try TestDatabase.closedPort()
        let serve = try Serve(["--cluster", "postgres://tandem:hunter2@127.0.0.1:\(port)/tandem"])
        let stderr = String(decoding: serve.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        serve.process.waitUntilExit()
        defer { serve.stop() }
        #expect(serve.process.terminationStatus == 1)
        let lines = stderr.split(separator: "\n").filter { !$0.hasPrefix("WARNING: --insecure") }
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
    /// back in the party on the other node, with its epoch continuing, within the bound.
    @Test(.enabled(if: TestDatabase.available, TestDatabase.skipReason))
    func aSIGKILLedNodesPartyMovesToTheOtherNode() async throws {
        let url = try #require(TestDatabase.environment["TANDEM_TEST_POSTGRES"])
        // b first: a, starting once b is registered, lists b in its welcomes from the start.
        let b = try Serve(["--cluster", url, "--cluster-lease", "3", "--node-id", TestDatabase.unique("proc-b")])
        defer { b.stop() }
        func port(_ serve: Serve) throws -> Int {
            let line = try #require(serve.line(startingWith: "listening on "), "serve printed no address")
            return try #require(Int(line.split(separator: ":").last ?? ""))
        }
        _ = try port(b)
        _ = try #require(b.line(startingWith: "cluster node "))
        let a = try Serve(["--cluster", url, "--cluster-lease", "3", "--node-id", TestDatabase.unique("proc-a")])
        defer { a.stop() }
        let portA = try port(a)
        _ = try #require(a.line(startingWith: "cluster node "))
        let party = TestDatabase.unique("sigkill")
        let link = PartyLink(host: "127.0.0.1", port: portA, party: party, key: ClusterServeTests.key, insecure: true)
        let host = TestMembers.member(link, name: "Hana", create: try TestMembers.config())
        let guest = TestMembers.member(link, name: "Gus")
        let hostRun = Task { await host.run() }
        try await eventually("the host is in") { await host.status.me != nil }
        let guestRun = Task { await guest.run() }
        try await eventually("the guest is synced") { await guest.status.synced }
        await host.request(.play)
        try await eventually("the party plays") { await guest.status.playing }

        let killed = ContinuousClock.now
        kill(a.process.processIdentifier, SIGKILL)
        try await eventually(within: ClusterServeTests.recoveryBound, "the guest is back in sync on b") {
            let g = await guest.status
            let h = await host.status
            return g.connected && g.synced && g.playing && h.connected
        }
        print("cluster SIGKILL: the guest was back in sync \(ContinuousClock.now - killed) after the kill")
        await guest.leave()
        _ = await guestRun.value
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await guest.shutDown()
    }
}
