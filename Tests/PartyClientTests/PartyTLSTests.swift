import Foundation
import Logging
import PartyKit
@testable import PartySecurity
@testable import PartyServer
@testable import PartyClient
import PlayerCore
import Synchronization
import Testing
import TestSupport
import WebSocketTransport

/// Parties over real TLS on loopback: pinned self-signed certificates, trust on first use, the
/// --insecure opt-out, and what an eavesdropper between guest and server sees.
@Suite(.serialized) struct PartyTLSTests {
    /// A fresh state folder of its own (removed by the caller).
    static func stateFolder() -> StateDirectory {
        StateDirectory(path: FileManager.default.temporaryDirectory.appendingPathComponent("tandem-state-\(UUID().uuidString)").path)
    }

    static func member(_ link: PartyLink, name: String, create: PartyConfig? = nil, folders: [String] = [PartyLoopbackTests.media],
                       notices: PartyLoopbackTests.Notices) -> PartyMember {
        PartyMember(options: .init(link: link, name: name, create: create, mediaFolders: folders,
                                   playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                   logger: Logger(label: "test")), notices: { notices.add($0) })
    }

    /// A TLS party server with the self-signed identity of `state`.
    static func tlsServer(_ state: StateDirectory) async throws -> (PartyServerRunner, Int, ServerIdentity) {
        let identity = try ServerIdentity.loadOrCreate(in: state)
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, tls: try identity.makeServerContext(), logger: Logger(label: "test"))
        return (server, try await server.start(), identity)
    }

    @Test func selfSignedCertificateIsMadeOnceAndKeptPrivate() throws {
        let state = Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let first = try ServerIdentity.loadOrCreate(in: state)
        let again = try ServerIdentity.loadOrCreate(in: state)
        #expect(first.fingerprint == again.fingerprint)
        #expect(first.selfSigned)
        #expect(PartyLink.isFingerprint(first.fingerprint))
        for name in [ServerIdentity.certificateFile, ServerIdentity.keyFile] {
            let attributes = try FileManager.default.attributesOfItem(atPath: state.file(name))
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
        }
        let folder = try FileManager.default.attributesOfItem(atPath: state.path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func pinnedPartyCarriesACommandToTheGuest() async throws {
        let state = Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let (server, port, identity) = try await Self.tlsServer(state)
        let link = PartyLink(host: "127.0.0.1", port: port, party: "tls", key: "k", fingerprint: identity.fingerprint)
        let hostNotices = PartyLoopbackTests.Notices(), guestNotices = PartyLoopbackTests.Notices()
        let host = Self.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]), notices: hostNotices)
        let guest = Self.member(link, name: "Gus", notices: guestNotices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let guestRun = Task { await guest.run() }
        #expect(await eventually { await guest.status.me != nil })
        await host.request(.play)
        #expect(await eventually { await guest.status.playing })
        await guest.leave()
        #expect(await guestRun.value == .left)
        await host.leave()
        #expect(await hostRun.value == .left)
        await host.shutDown()
        await guest.shutDown()
        await server.stop()
    }

    @Test func wrongFingerprintIsRefusedNamingBoth() async throws {
        let state = Self.stateFolder(), elsewhere = Self.stateFolder()
        defer {
            try? FileManager.default.removeItem(atPath: state.path)
            try? FileManager.default.removeItem(atPath: elsewhere.path)
        }
        let (server, port, identity) = try await Self.tlsServer(state)
        let impostor = try ServerIdentity.loadOrCreate(in: elsewhere).fingerprint
        let link = PartyLink(host: "127.0.0.1", port: port, party: "tls", key: "k", fingerprint: impostor)
        let guest = Self.member(link, name: "Gus", notices: PartyLoopbackTests.Notices())
        let outcome = await guest.run()
        guard case .failed(let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(message.contains("expected fingerprint \(impostor)"), "\(message)")
        #expect(message.contains("the server showed \(identity.fingerprint)"), "\(message)")
        await guest.shutDown()
        await server.stop()
    }

    /// A probe of a port nothing listens on is an error naming the address (it used to leave its
    /// handshake promise unfulfilled, which a debug build traps on), and ``ServerProbe/shows(fingerprint:host:port:)``
    /// says no.
    @Test func aProbeOfAClosedPortFailsNamingTheAddress() async throws {
        let port = try LoopbackPort.free()
        await #expect { try await ServerProbe.fingerprint(host: "127.0.0.1", port: port) } throws: { error in
            "\(error)".contains("cannot learn the certificate of 127.0.0.1:\(port)")
        }
        #expect(await !ServerProbe.shows(fingerprint: "AAAA", host: "127.0.0.1", port: port))
    }

    @Test func trustOnFirstUseRemembersAndRefusesAChange() async throws {
        let state = Self.stateFolder(), client = Self.stateFolder(), other = Self.stateFolder()
        defer { for s in [state, client, other] { try? FileManager.default.removeItem(atPath: s.path) } }
        let (server, port, identity) = try await Self.tlsServer(state)
        let seen = try await ServerProbe.fingerprint(host: "127.0.0.1", port: port)
        #expect(seen == identity.fingerprint)
        #expect(await !ServerProbe.verifies(host: "127.0.0.1", port: port), "a self-signed certificate does not verify")
        let known = KnownServers(state: client)
        let address = "127.0.0.1:\(port)"
        #expect(try known.check(address: address, seen: seen) == .remembered)
        #expect(try known.check(address: address, seen: seen) == .known)
        let attributes = try FileManager.default.attributesOfItem(atPath: known.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // The server comes back with another certificate: refused, naming both.
        await server.stop()
        let changed = try ServerIdentity.loadOrCreate(in: other).fingerprint
        #expect(throws: SecurityError.knownServerChanged(address: address, known: seen, seen: changed, file: known.path)) {
            try known.check(address: address, seen: changed)
        }
        #expect(SecurityError.knownServerChanged(address: address, known: seen, seen: changed, file: known.path).description
            .contains("remembered fingerprint \(seen), now \(changed)"))
        // Still the first one, for that address.
        #expect(try known.entries()[address] == seen)
    }

    @Test func insecureGuestAgainstATLSServerFailsClearly() async throws {
        let state = Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let (server, port, _) = try await Self.tlsServer(state)
        let guest = Self.member(PartyLink(host: "127.0.0.1", port: port, party: "p", key: "k", insecure: true), name: "Gus",
                                notices: PartyLoopbackTests.Notices())
        let outcome = await guest.run()
        guard case .failed(let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(message.contains("is 127.0.0.1:\(port) a TLS server?"), "\(message)")
        await guest.shutDown()
        await server.stop()
    }

    @Test func tlsGuestAgainstAPlainServerFailsClearly() async throws {
        let state = Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let fingerprint = try ServerIdentity.loadOrCreate(in: state).fingerprint
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let guest = Self.member(PartyLink(host: "127.0.0.1", port: port, party: "p", key: "k", fingerprint: fingerprint), name: "Gus",
                                notices: PartyLoopbackTests.Notices())
        let outcome = await guest.run()
        guard case .failed(let message) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(message.contains("127.0.0.1:\(port) does not speak TLS"), "\(message)")
        await guest.shutDown()
        await server.stop()
    }

    /// A whole party (join, chat, a command, media streamed by the guest) through a recording proxy
    /// between guest and server: with TLS the capture holds neither the key nor the chat; without, it
    /// holds both (so the check can fail).
    @Test(arguments: [true, false]) func eavesdropperBetweenGuestAndServerLearnsNothing(tls: Bool) async throws {
        let state = Self.stateFolder()
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let identity = tls ? try ServerIdentity.loadOrCreate(in: state) : nil
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, tls: try identity?.makeServerContext(), logger: Logger(label: "test"))
        let port = try await server.start()
        let proxy = RecordingProxy()
        let proxied = try await proxy.start(targetPort: port)
        let key = "keyThatMustNotLeak42", chat = "meet me at the old oak at nine"
        let direct = PartyLink(host: "127.0.0.1", port: port, party: "wire", key: key, fingerprint: identity?.fingerprint, insecure: !tls)
        var viaProxy = direct
        viaProxy.port = proxied
        let hostNotices = PartyLoopbackTests.Notices(), guestNotices = PartyLoopbackTests.Notices()
        let host = Self.member(direct, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]), notices: hostNotices)
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        // The host serves its own file to members without a copy (as `tandem host` does).
        server.media.serve(party: "wire", key: key, files: [0: PartyLoopbackTests.media + "/party.mp4"])
        // The guest has no copy: it streams the item from the server, through the proxy.
        let guest = Self.member(viaProxy, name: "Gus", folders: [], notices: guestNotices)
        let guestRun = Task { await guest.run() }
        #expect(await eventually { await guest.status.me != nil })
        await guest.chat(chat)
        #expect(await eventually { hostNotices.all.contains { $0.contains(chat) } })
        await host.request(.play)
        #expect(await eventually(within: 30) {
            let s = await guest.status
            return s.playing && (s.position ?? 0) > 1
        })
        await guest.leave()
        #expect(await guestRun.value == .left)
        await host.leave()
        #expect(await hostRun.value == .left)
        await host.shutDown()
        await guest.shutDown()
        await server.stop()
        await proxy.stop()

        let capture = proxy.capture
        // The media crossed the proxy: more than the party messages alone would make.
        #expect(capture.count > 100_000, "captured \(capture.count) bytes")
        #expect(capture.contains(utf8: key) == !tls)
        #expect(capture.contains(utf8: chat) == !tls)
        #expect(capture.contains(utf8: "/media/0") == !tls)
    }
}
