import Foundation
import NIOSSL
import PartySecurity
import PartyKit
import Testing
import TestSupport
import TestSupportTLS
import SyncplayKit


/// Issue #13 part 4(b): a real syncplay + mpv client in a Tandem party, through the gateway
/// (`serve --syncplay`), all on loopback. It follows the host's play, pause and seek; its own pause
/// reaches the party under `--control everyone`, and is refused and reverted under `--control host`.
@Suite(.serialized) struct SyncplayGatewayTests {
    /// How close mpv must follow the host (seconds): far looser than Syncplay's ~0.1 s class, as a
    /// failure bound on a loaded machine; the benchmark measures the real figure.
    static let followBound = 1.0
    /// Python and mpv can take tens of seconds to start while other builds load both cores.
    static let startBound = 90.0

    /// A syncplay + mpv client in `party`'s room through the gateway, and mpv's IPC.
    struct Peer {
        let process: SyncplayProcess
        let mpv: MPVClient
        let socket: String

        /// `host`: the gateway's name as syncplay connects to it; `trusting`: a PEM file of roots
        /// syncplay trusts for STARTTLS. Syncplay 1.6.9 sets `SSL_CERT_FILE` to `certifi.where()`
        /// itself (Debian's certifi: the system's bundle), so it is given a stand-in `certifi`
        /// module first on its `PYTHONPATH` whose `where()` is that file.
        static func join(_ party: GatewayParty, name: String, password: String = GatewayParty.key, home: URL,
                         host: String = "127.0.0.1", trusting roots: String? = nil) async throws -> Peer {
            let socket = home.appendingPathComponent("\(name).sock").path
            // TANDEM_SYNCPLAY_DEBUG=1: syncplay logs every protocol line (printed when a test fails).
            let debug = ProcessInfo.processInfo.environment["TANDEM_SYNCPLAY_DEBUG"] != nil ? ["--debug"] : []
            let process = try SyncplayProcess(SyncplayBinaries.client, debug + [
                "--no-gui", "--no-store", "-a", "\(host):\(party.gateway.port)", "-n", name, "-r", party.party, "-p", password,
                "--player-path", SyncplayBinaries.mpv, Fixtures.partyFile,
                "--", "--vo=null", "--ao=null", "--input-ipc-server=\(socket)",
            ], home: home, log: "\(name).log", environment: try roots.map { ["PYTHONPATH": try certifiShim(trusting: $0, in: home)] } ?? [:])
            do {
                let mpv = try await MPVClient.connect(path: socket, within: SyncplayGatewayTests.startBound)
                return Peer(process: process, mpv: mpv, socket: socket)
            } catch {
                process.stop()
                SyncplayProcess.killDescendants(holding: socket)
                print("syncplay client log:\n\(process.output)")
                throw error
            }
        }

        /// A folder holding a `certifi` package whose bundle is `roots`; returns the folder.
        static func certifiShim(trusting roots: String, in home: URL) throws -> String {
            let package = home.appendingPathComponent("certifi-shim/certifi")
            try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
            try "def where():\n    return \(String(reflecting: roots))\n"
                .write(to: package.appendingPathComponent("__init__.py"), atomically: true, encoding: .utf8)
            return package.deletingLastPathComponent().path
        }

        func position() async -> Double? { (try? await mpv.get("time-pos"))?.double }
        func paused() async -> Bool? { (try? await mpv.get("pause"))?.bool }

        func stop() async {
            _ = try? await mpv.command([.string("quit")])
            await mpv.close()
            process.stop()
            SyncplayProcess.killDescendants(holding: socket)
        }
    }

    static func home() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-syncplay-gw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    /// mpv plays (or is paused) as the host does, within ``followBound`` of the host, past `beyond`.
    static func expectFollowing(_ peer: Peer, _ party: GatewayParty, playing: Bool, beyond: Double = 0, _ what: String) async throws {
        try await waitUntil(what, within: SyncplayRealServerTests.propagationBound) {
            guard let host = await party.hostPlayer(), host.playing == playing,
                  let paused = await peer.paused(), paused == !playing, let position = await peer.position(),
                  position > beyond else { return false }
            let hostNow = await party.hostPlayer()?.position ?? host.position
            return abs(position - hostNow) < Self.followBound
        }
    }

    /// Joins amy's syncplay + mpv to a party of `control`, waits until mpv has the file and the
    /// party lists amy, and runs `body`.
    /// `tls`: the gateway offers STARTTLS with a certificate for localhost from a CA made here,
    /// which syncplay is given to trust.
    static func withPeer(control: ControlPolicy, tls: Bool = false, _ body: (GatewayParty, Peer) async throws -> Void) async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        var context: NIOSSLContext?
        var roots: String?
        if tls {
            let folder = home.appendingPathComponent("tls").path
            roots = try TestCertificateAuthority(commonName: "Tandem Syncplay test CA").writeSyncplayServerFolder(folder)
            context = try ServerIdentity.load(certificateFile: folder + "/cert.pem", keyFile: folder + "/privkey.pem").makeServerContext()
        }
        let party = try await GatewayParty.start(control: control, tls: context)
        do {
            let peer = try await Peer.join(party, name: "amy", home: home, host: tls ? "localhost" : "127.0.0.1", trusting: roots)
            do {
                try await waitUntil("amy (Syncplay) in the party's list", within: Self.startBound) {
                    await party.names().contains(SyncplayPartyBridge.partyName("amy"))
                }
                try await waitUntil("mpv to load the file", within: Self.startBound) {
                    (try? await peer.mpv.get("duration"))?.double != nil
                }
                try await body(party, peer)
                // With TANDEM_SYNCPLAY_DEBUG: whether this run met the jump a joining client misses.
                let missed = peer.process.output.components(separatedBy: "Ignored seek").count - 1
                if missed > 0 { print("syncplay ignored \(missed) seek(s) right after opening its file (the gateway sent the jump again)") }
            } catch {
                print("syncplay client log:\n\(peer.process.output)")
                await peer.stop()
                throw error
            }
            await peer.stop()
        } catch {
            await party.stop()
            throw error
        }
        await party.stop()
    }

    /// Was disabled as flaky (issue #13; docs/syncplay.md, "The jump a joining client misses"):
    /// syncplay 1.6.9 ignores the host's seek to 20 s when it comes within 1 s of opening its file,
    /// then says `doSeek` where its player stayed (near 0:00), which moved the whole party back.
    /// Also: mpv's seek to 10 s crossing the party's forced pause state was lost. Both fixed in
    /// `SyncplayServerCore`; with TANDEM_SYNCPLAY_DEBUG=1 a run says when it met the first.
    @Test
    func aSyncplayClientFollowsTheHostAndItsPauseReachesTheParty() async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the Syncplay gateway test: \(missing)")
            return
        }
        try await Self.withPeer(control: .everyone) { party, peer in
            // Party chat reaches the Syncplay user.
            await party.host.chat("hello from Hana")
            try await waitUntil("the host's chat in syncplay's console", within: SyncplayRealServerTests.propagationBound) {
                peer.process.output.contains("hello from Hana")
            }

            // The host seeks to 20 s and plays: mpv follows.
            await party.host.request(.seek, value: 20)
            await party.host.request(.play)
            try await Self.expectFollowing(peer, party, playing: true, beyond: 19, "mpv to play with the host from 20 s")

            // The host pauses: mpv pauses where the host is.
            await party.host.request(.pause)
            try await Self.expectFollowing(peer, party, playing: false, "mpv to pause with the host")

            // The host seeks to 40 s, paused: mpv follows.
            await party.host.request(.seek, value: 40)
            try await waitUntil("mpv to seek to 40 s", within: SyncplayRealServerTests.propagationBound) {
                guard let position = await peer.position() else { return false }
                return abs(position - 40) < Self.followBound
            }

            // Playing again, mpv pauses: the party (the host's player) pauses.
            await party.host.request(.play)
            try await Self.expectFollowing(peer, party, playing: true, "mpv to play with the host again")
            try await peer.mpv.set("pause", .bool(true))
            try await waitUntil("mpv's pause to pause the host", within: SyncplayRealServerTests.propagationBound) {
                await party.hostPlayer()?.playing == false
            }
            #expect(party.notices.timelineReasons.contains("\(SyncplayPartyBridge.partyName("amy")): pause"))
            // The party's pause comes back to syncplay as the room's state, which it acknowledges in the
            // same step as it says so. A seek made before that crosses the room's state on the way, and
            // syncplay itself then takes the room's state over its own seek (its server, like ours, drops
            // a client's reports while its own forced state is unacknowledged): a person seeks after
            // seeing the pause; so does the test.
            try await waitUntil("syncplay to show amy's pause as the room's", within: SyncplayRealServerTests.propagationBound) {
                peer.process.output.contains("amy paused")
            }

            // mpv seeks to 10 s: the party seeks.
            try await peer.mpv.set("time-pos", .number(10))
            try await waitUntil("mpv's seek to move the host", within: SyncplayRealServerTests.propagationBound) {
                guard let host = await party.hostPlayer() else { return false }
                return abs(host.position - 10) < Self.followBound
            }
        }
    }

    @Test func underHostControlASyncplayPauseIsRefusedAndReverted() async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the Syncplay gateway test: \(missing)")
            return
        }
        try await Self.withPeer(control: .host) { party, peer in
            await party.host.request(.play)
            try await Self.expectFollowing(peer, party, playing: true, "mpv to play with the host")

            // mpv pauses: refused, so mpv plays again and the party never paused.
            try await peer.mpv.set("pause", .bool(true))
            try await waitUntil("mpv to be forced to play again", within: SyncplayRealServerTests.propagationBound) {
                await peer.paused() == false
            }
            try await Self.expectFollowing(peer, party, playing: true, "mpv to follow the playing host after the refusal")
            #expect(!party.notices.timelineReasons.contains { $0.hasPrefix(SyncplayPartyBridge.partyName("amy")) })
            // The refusal is shown to the Syncplay user (a chat line from the gateway).
            try await waitUntil("the refusal in syncplay's console", within: SyncplayRealServerTests.propagationBound) {
                peer.process.output.contains("<Tandem> refused: only the host can pause")
            }
        }
    }

    /// Issue #13: STARTTLS at the gateway with the party server's identity (here a certificate from
    /// a CA syncplay is told to trust): syncplay 1.6.9 says its connection is secure, joins the
    /// party through it, and follows the host.
    @Test func aSyncplayClientAskingForStartTLSJoinsEncrypted() async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the Syncplay gateway test: \(missing)")
            return
        }
        try await Self.withPeer(control: .host, tls: true) { party, peer in
            try await waitUntil("syncplay to report a secure connection", within: SyncplayRealServerTests.propagationBound) {
                peer.process.output.contains("Secure connection established")
            }
            #expect(!peer.process.output.contains("This server does not support TLS"))
            await party.host.request(.seek, value: 20)
            await party.host.request(.play)
            try await Self.expectFollowing(peer, party, playing: true, beyond: 19, "mpv to play with the host from 20 s over TLS")
        }
    }
}
