import Foundation
import Testing
import TestSupport

/// TLS as a user meets it, with the built `tandem` binary: `serve` prints its fingerprint, `host
/// --server` trusts it on first use and puts it in the link, a changed certificate is refused, and a
/// TLS-minded `join` refuses an insecure link.
@Suite(.serialized) struct PartyTLSCommandTests {
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cli-state-\(UUID().uuidString)").path
    }

    /// Runs `tandem ARGUMENTS` to its end; exit status, standard output and standard error.
    static func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try await ChildProcess.runTandem(arguments)
        return (result.status, result.standardOutput, result.standardError)
    }

    @Test func aSecureJoinRefusesAnInsecureLink() async throws {
        let result = try await Self.run(["join", "tandem+insecure://127.0.0.1:9/party/p?key=k", "--headless"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("runs an insecure party (tandem+insecure://)"), "\(result.stderr)")
        #expect(result.stderr.contains("join with --insecure"), "\(result.stderr)")
    }

    @Test func serveFingerprintIsTrustedOnFirstUseAndAChangeIsRefused() async throws {
        let serverState = Self.folder(), hostState = Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: serverState)
            try? FileManager.default.removeItem(atPath: hostState)
        }
        let serve = try ChildProcess.tandem(["serve", "--listen", "127.0.0.1:0", "--state-dir", serverState, "--duration", "120"],
                                            standardError: .discard)
        defer { serve.terminate() }
        let address = try await serve.line(startingWith: "listening on ", within: 60).dropFirst("listening on ".count)
        let fingerprint = String(try await serve.line(startingWith: "fingerprint ", within: 60).dropFirst("fingerprint ".count))

        let media = Repository.asset("party.mp4")
        let host = ["host", media, "--server", String(address), "--state-dir", hostState, "--headless", "--duration", "1"]
        let first = try await Self.run(host)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("&fp=\(fingerprint)"), "\(first.stdout)")
        #expect(first.stderr.contains("trusting \(address) on first use: fingerprint \(fingerprint)"), "\(first.stderr)")
        let known = try String(contentsOfFile: hostState + "/known-servers", encoding: .utf8)
        #expect(known == "\(address) \(fingerprint)\n")

        // The same server again: known, nothing said.
        let second = try await Self.run(host)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("first use"))

        // The host remembers another certificate for that address: refused, naming both.
        let remembered = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        try "\(address) \(remembered)\n".write(toFile: hostState + "/known-servers", atomically: true, encoding: .utf8)
        let changed = try await Self.run(host)
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("remembered fingerprint \(remembered), now \(fingerprint)"), "\(changed.stderr)")
    }
}
