import Foundation
import NIOSSL
import Testing
import TestSupport
import TestSupportTLS
import SyncplayKit
@testable import SyncplayClient

/// STARTTLS against Debian's syncplay-server run with `--tls` and a certificate made in the test.
@Suite(.serialized) struct SyncplayStartTLSTests {
    private func withTLSServer(_ body: (_ port: Int, _ ca: String) async throws -> Void) async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the Syncplay STARTTLS test: \(missing)")
            return
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-syncplay-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let ca = try TestCertificateAuthority(commonName: "Tandem Syncplay test CA").writeSyncplayServerFolder(home.appendingPathComponent("tls").path)
        let port = try LoopbackPort.free()
        let server = try SyncplayProcess(SyncplayBinaries.server, ["--port", String(port), "--tls", home.appendingPathComponent("tls").path],
                                      home: home, log: "server.log")
        defer { server.stop() }
        try await LoopbackPort.waitForListener(port, within: SyncplayRealServerTests.startBound)
        #expect(server.output.contains("TLS support is enabled"), "syncplay-server did not load the test certificate: \(server.output)")
        try await body(port, ca)
    }

    private func session(port: Int, tls: TLSConfiguration) -> SyncplaySession {
        SyncplaySession(options: .init(host: "localhost", port: port, core: .init(name: "tandem", room: "secret", useTLS: true),
                                       file: nil, mediaFolders: [], playerOptions: Fixtures.headless, tls: tls,
                                       logger: Fixtures.quietLogger), notices: { _ in })
    }

    @Test func aServerOfferingTLSIsJoinedEncrypted() async throws {
        try await withTLSServer { port, ca in
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(ca)
            let session = session(port: port, tls: tls)
            let run = Task { await session.run() }
            try await waitUntil("the TLS session to join", within: SyncplayRealServerTests.startBound) { await session.status.connected }
            #expect(await session.status.encrypted)
            await session.leave()
            #expect(await run.value == .left)
            await session.shutDown()
        }
    }

    @Test func anUntrustedCertificateIsAClearError() async throws {
        try await withTLSServer { port, _ in
            let session = session(port: port, tls: .makeClientConfiguration())
            let outcome = try await within(SyncplayRealServerTests.startBound, "the untrusted TLS session to fail") {
                await session.run()
            }
            await session.shutDown()
            guard case .failed(let reason) = outcome else { Issue.record("not a failure: \(outcome)"); return }
            #expect(reason.hasPrefix("the connection closed while starting TLS"), "\(reason)")
            #expect(!(await session.status.encrypted))
        }
    }
}
