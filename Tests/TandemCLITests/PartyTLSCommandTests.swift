import Foundation
import Testing
@testable import TandemCLI
@testable import TandemApp
@testable import TandemBench

/// TLS as a user meets it, with the built `tandem` binary: `serve` prints its fingerprint, `host
/// --server` trusts it on first use and puts it in the link, a changed certificate is refused, and a
/// TLS-minded `join` refuses an insecure link.
@Suite(.serialized) struct PartyTLSCommandTests {
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cli-state-\(UUID().uuidString)").path
    }

    /// Runs `tandem ARGUMENTS` to its end; exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try URLOpenErrorTests.binary()
        process.arguments = arguments
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        // Both pipes are drained at once so neither fills and blocks the child.
        let errorBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errorBox.data, as: UTF8.self))
    }

    /// Written by one reader thread, read after it finished (the group orders them).
    private final class DataBox: @unchecked Sendable { var data = Data() }

    @Test func aSecureJoinRefusesAnInsecureLink() throws {
        let result = try Self.run(["join", "tandem+insecure://127.0.0.1:9/party/p?key=k", "--headless"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("runs an insecure party (tandem+insecure://)"), "\(result.stderr)")
        #expect(result.stderr.contains("join with --insecure"), "\(result.stderr)")
    }

    @Test func serveFingerprintIsTrustedOnFirstUseAndAChangeIsRefused() throws {
        let serverState = Self.folder(), hostState = Self.folder()
        defer {
            try? FileManager.default.removeItem(atPath: serverState)
            try? FileManager.default.removeItem(atPath: hostState)
        }
        let serve = Process()
        serve.executableURL = try URLOpenErrorTests.binary()
        serve.arguments = ["serve", "--listen", "127.0.0.1:0", "--state-dir", serverState, "--duration", "120"]
        let out = Pipe()
        serve.standardOutput = out
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        defer { serve.terminate(); serve.waitUntilExit() }
        var text = ""
        while !text.contains("fingerprint ") || !text.hasSuffix("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let lines = text.split(separator: "\n")
        let address = try #require(lines.first { $0.hasPrefix("listening on ") }?.dropFirst("listening on ".count))
        let fingerprint = String(try #require(lines.first { $0.hasPrefix("fingerprint ") }?.dropFirst("fingerprint ".count)))

        let media = TestAssets.root.appendingPathComponent("assets/party.mp4").path
        let host = ["host", media, "--server", String(address), "--state-dir", hostState, "--headless", "--duration", "1"]
        let first = try Self.run(host)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("&fp=\(fingerprint)"), "\(first.stdout)")
        #expect(first.stderr.contains("trusting \(address) on first use: fingerprint \(fingerprint)"), "\(first.stderr)")
        let known = try String(contentsOfFile: hostState + "/known-servers", encoding: .utf8)
        #expect(known == "\(address) \(fingerprint)\n")

        // The same server again: known, nothing said.
        let second = try Self.run(host)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("first use"))

        // The host remembers another certificate for that address: refused, naming both.
        let remembered = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        try "\(address) \(remembered)\n".write(toFile: hostState + "/known-servers", atomically: true, encoding: .utf8)
        let changed = try Self.run(host)
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("remembered fingerprint \(remembered), now \(fingerprint)"), "\(changed.stderr)")
    }
}
