import Foundation
import Testing

/// `tandem bench load` end to end with the built binary: a handful of members in two parties against
/// the `tandem serve` it starts on loopback, TLS (pinned) and plain. Every ping of the window gets its
/// pong and every command reaches every member of its party; no timing is asserted.
@Suite(.serialized) struct LoadBenchTests {
    @Test(arguments: [false, true]) func everyMemberGetsItsPongsAndTheFanOuts(insecure: Bool) async throws {
        // Two parties: their hosts' first commands come 2.5 s and 5 s into the 6 s window.
        let result = try await PartyTLSCommandTests.run(
            ["bench", "load", "--members", "6", "--parties", "2", "--duration", "6", "--warm-up", "1", "--json"]
                + (insecure ? ["--insecure"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").last, "no output; stderr: \(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        func int(_ key: String) -> Int { summary[key] as? Int ?? -1 }
        #expect(summary["event"] as? String == "load")
        #expect(summary["tls"] as? Bool == !insecure)
        #expect(int("members") == 6 && int("parties") == 2)
        #expect(int("pingsSent") > 0, "\(line)")
        #expect(int("pongsReceived") == int("pingsSent"), "\(line)")
        #expect(int("commandsSent") >= 2, "\(line)")
        // Three members a party: every command reaches all three (its host too).
        #expect(int("fanOutsExpected") == 3 * int("commandsSent"), "\(line)")
        #expect(int("fanOutsReceived") == int("fanOutsExpected"), "\(line)")
        #expect(int("disconnects") == 0, "\(line)")
        #expect(summary["pongP99Ms"] as? Double != nil && summary["fanOutP99Ms"] as? Double != nil, "\(line)")
        #expect((summary["serverRSSPerMemberKiB"] as? Double).map { $0.isFinite } == true, "\(line)")
    }

    @Test func badOptionsAreRefusedClearly() async throws {
        let result = try await PartyTLSCommandTests.run(["bench", "load", "--members", "2", "--parties", "3"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--members must be at least --parties"), "\(result.stderr)")
        let external = try await PartyTLSCommandTests.run(["bench", "load", "--server", "127.0.0.1:9"])
        #expect(external.status != 0)
        #expect(external.stderr.contains("--server needs --server-pid"), "\(external.stderr)")
    }
}
