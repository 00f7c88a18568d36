import Foundation
import Logging
import PartyKit
import PlayerCore
@testable import PartySecurity
@testable import PartyServer
@testable import PartyClient
import Testing
import TestSupportTLS
import TestSupport

/// A party server with operator-given certificate files (`--cert`, `--cert-key`): links carry no
/// fingerprint, members verify the chain (here against a test CA given as `--ca`) and the host name.
@Suite(.serialized) struct PartyVerifiedTLSTests {
    @Test(arguments: [("localhost", true), ("party.example", false)])
    func memberVerifiesChainAndName(certificateName: String, accepted: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-ca-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try TestCertificateAuthority(commonName: "Tandem party test CA").write(serverName: certificateName, into: folder)
        let identity = try ServerIdentity.load(certificateFile: files.cert, keyFile: files.key)
        #expect(!identity.selfSigned)
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, tls: try identity.makeServerContext(), logger: Logger(label: "test"))
        let port = try await server.start()
        #expect(await ServerProbe.verifies(host: "localhost", port: port, extraRoots: [files.ca]) == accepted)
        #expect(await !ServerProbe.verifies(host: "localhost", port: port), "the test CA is not in the system's trust store")

        let link = PartyLink(host: "localhost", port: port, party: "ca", key: "k")
        let member = PartyMember(options: .init(link: link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                                mediaFolders: [PartyLoopbackTests.media],
                                                playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                                trust: ServerTrust(link: link, extraRoots: [files.ca]), logger: Logger(label: "test")),
                                 notices: { _ in })
        let run = Task { await member.run() }
        if accepted {
            #expect(await eventually { await member.status.me != nil })
            await member.leave()
            #expect(await run.value == .left)
        } else {
            let outcome = await run.value
            guard case .failed(let message) = outcome else {
                Issue.record("expected a refusal, got \(outcome)")
                return
            }
            #expect(message.contains("TLS with localhost:\(port) failed"), "\(message)")
        }
        await member.shutDown()
        await server.stop()
    }
}
