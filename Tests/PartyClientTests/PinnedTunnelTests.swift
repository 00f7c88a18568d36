import Foundation
import Logging
import NIOPosix
import PartyKit
@testable import PartySecurity
@testable import PartyServer
@testable import PartyClient
import Testing

/// The guest's media tunnel: plain HTTP on loopback in, the party server's TLS (pinned) out, byte for
/// byte; and the server's sendfile bodies read into buffers under TLS.
@Suite(.serialized) struct PinnedTunnelTests {
    static func tlsMediaServer() async throws -> (PartyServerRunner, Int, ServerIdentity, StateDirectory) {
        let state = PartyTLSTests.stateFolder()
        let identity = try ServerIdentity.loadOrCreate(in: state)
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, tls: try identity.makeServerContext(), logger: Logger(label: "test"))
        let port = try await server.start()
        server.media.serve(party: MediaServingTests.party, key: MediaServingTests.key, files: [0: MediaServingTests.file])
        return (server, port, identity, state)
    }

    @Test func rangesThroughTheTunnelCarryTheFilesBytes() async throws {
        let (server, port, identity, state) = try await Self.tlsMediaServer()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let tunnel = try #require(try PinnedTunnel.make(host: "127.0.0.1", port: port, trust: .pinned(identity.fingerprint),
                                                        logger: Logger(label: "test")))
        let origin = try await tunnel.start()
        let tunnelPort = try #require(Int(origin.split(separator: ":").last ?? ""))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: MediaServingTests.file)))
        var rng = SplitMix64(seed: 11)
        for _ in 0..<8 {
            let first = Int.random(in: 0..<bytes.count, using: &rng)
            let last = min(bytes.count - 1, first + Int.random(in: 0..<200_000, using: &rng))
            let answer = try await RawHTTP.get(port: tunnelPort, MediaServingTests.path,
                                               headers: MediaServingTests.auth.merging(["Range": "bytes=\(first)-\(last)"]) { a, _ in a })
            #expect(answer.status == 206)
            #expect(answer.body == Array(bytes[first...last]))
        }
        let whole = try await RawHTTP.get(port: tunnelPort, MediaServingTests.path, headers: MediaServingTests.auth)
        #expect(whole.status == 200 && whole.body == bytes)
        await tunnel.stop()
        await server.stop()
    }

    /// Seeking players hang up mid-body and open new ranges, several at once: nothing stalls.
    @Test func abandonedAndConcurrentReadersDoNotStallIt() async throws {
        let (server, port, identity, state) = try await Self.tlsMediaServer()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let tunnel = try #require(try PinnedTunnel.make(host: "127.0.0.1", port: port, trust: .pinned(identity.fingerprint),
                                                        logger: Logger(label: "test")))
        let origin = try await tunnel.start()
        let tunnelPort = try #require(Int(origin.split(separator: ":").last ?? ""))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: MediaServingTests.file)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for reader in 0..<6 {
                group.addTask {
                    for round in 0..<5 {
                        let first = (reader * 37_000 + round * 51_000) % (bytes.count - 1)
                        let answer = try await RawHTTP.get(port: tunnelPort, MediaServingTests.path,
                                                           headers: MediaServingTests.auth.merging(["Range": "bytes=\(first)-"]) { a, _ in a },
                                                           readLimit: 10_000)
                        #expect(answer.status == 206)
                        #expect(answer.body.count >= 10_000 ? Array(answer.body.prefix(10_000)) == Array(bytes[first..<(first + 10_000)])
                                : answer.body == Array(bytes[first...]))
                    }
                }
            }
            try await group.waitForAll()
        }
        let whole = try await RawHTTP.get(port: tunnelPort, MediaServingTests.path, headers: MediaServingTests.auth)
        #expect(whole.status == 200 && whole.body == bytes)
        await tunnel.stop()
        await server.stop()
    }

    @Test func aTunnelPinnedToAnotherCertificateCarriesNothing() async throws {
        let (server, port, _, state) = try await Self.tlsMediaServer()
        let elsewhere = PartyTLSTests.stateFolder()
        defer {
            try? FileManager.default.removeItem(atPath: state.path)
            try? FileManager.default.removeItem(atPath: elsewhere.path)
        }
        let impostor = try ServerIdentity.loadOrCreate(in: elsewhere).fingerprint
        let tunnel = try #require(try PinnedTunnel.make(host: "127.0.0.1", port: port, trust: .pinned(impostor), logger: Logger(label: "test")))
        let origin = try await tunnel.start()
        let tunnelPort = try #require(Int(origin.split(separator: ":").last ?? ""))
        let answer = try? await RawHTTP.get(port: tunnelPort, MediaServingTests.path, headers: MediaServingTests.auth)
        #expect(answer == nil || answer?.status != 200, "no media through a tunnel to the wrong server")
        #expect(answer?.body.isEmpty ?? true)
        await tunnel.stop()
        await server.stop()
    }

    @Test func insecurePartiesNeedNoTunnel() throws {
        #expect(try PinnedTunnel.make(host: "127.0.0.1", port: 1, trust: .insecure, logger: Logger(label: "test")) == nil)
    }

    /// The address the tunnel dials is one that answered a connection (Happy Eyeballs over every
    /// address of the name), found at start: a server that cannot be reached is said then, by name.
    @Test func aServerThatCannotBeReachedIsSaidAtStart() async throws {
        let state = PartyTLSTests.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let fingerprint = try ServerIdentity.loadOrCreate(in: state).fingerprint
        // A port nothing listens on: bound, then closed.
        let closed = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(closed.localAddress?.port)
        try await closed.close()
        let tunnel = try #require(try PinnedTunnel.make(host: "127.0.0.1", port: port, trust: .pinned(fingerprint), logger: Logger(label: "test")))
        await #expect {
            _ = try await tunnel.start()
        } throws: { error in
            "\(error)".contains("cannot reach the party server 127.0.0.1:\(port)")
        }
        await tunnel.stop()
    }
}
