import Foundation
import PartyServer
import PartyKit
import Testing
import TestSupport
import SyncplayKit
@testable import SyncplayGateway

/// A real syncplay + mpv client in a Tandem party through the gateway, when the party server
/// restarts: the gateway tells it why in a chat line and hangs up without Syncplay's `Error`, so
/// syncplay reconnects by itself (up to its 999 retries) and is back in the party, following the
/// host, with nobody doing anything. It reaches the new gateway before the host has re-created the
/// party there, and is hung up on again (the gateway's restart grace), not refused for good.
@Suite(.serialized) struct SyncplayGatewayRestartTests {
    @Test func aRealSyncplayClientIsBackInThePartyAfterTheServerRestarts() async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the Syncplay gateway restart test: \(missing)")
            return
        }
        let home = try SyncplayGatewayTests.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let party = try await GatewayParty.start(control: .everyone, restartable: true)
        let partyPort = await party.host.options.link.port
        let gatewayPort = party.gateway.port
        let peer = try await SyncplayGatewayTests.Peer.join(party, name: "amy", home: home)
        var restarted: (server: PartyServerRunner, gateway: SyncplayGatewayServer)?
        do {
            try await waitUntil("amy (Syncplay) in the party's list", within: SyncplayGatewayTests.startBound) {
                await party.names().contains(SyncplayPartyBridge.partyName("amy"))
            }
            // syncplay takes its player once mpv has the file: a chat line before that breaks its
            // line handling (an AttributeError on its missing player).
            try await waitUntil("mpv to load the file", within: SyncplayGatewayTests.startBound) {
                (try? await peer.mpv.get("duration"))?.double != nil
            }

            // The server restarts as `tandem serve` drains: the gateway stops listening, every member
            // (the host, amy's) is told the server is restarting, then everything stops.
            await party.gateway.stopListening()
            await party.server.tellEveryone(shuttingDown: "the server is restarting")
            try await waitUntil("syncplay to be told why and to retry", within: SyncplayRealServerTests.propagationBound) {
                peer.process.output.contains("<Tandem> the server is restarting; reconnecting")
                    && peer.process.output.contains("attempting to reconnect")
            }
            await party.gateway.stop()
            await party.server.stop()
            // The new gateway first, its party server not listening yet: syncplay (retrying every
            // 3.2 s at most) comes back before the host can, and finds no party. Within the
            // gateway's restart grace that is a chat line and the close, and syncplay tries again.
            let server = PartyServerRunner(host: "127.0.0.1", port: partyPort, logger: Fixtures.quietLogger)
            let gateway = try await SyncplayGatewayServer.start(host: "127.0.0.1", port: gatewayPort, parties: server,
                                                                logger: Fixtures.quietLogger)
            restarted = (server, gateway)
            try await waitUntil("syncplay to find the party not back yet", within: SyncplayGatewayTests.startBound) {
                peer.process.output.contains("<Tandem> no party \"\(party.party)\" on this server yet")
            }
            _ = try await server.start()
            try await waitUntil("the host to re-create the party", within: SyncplayGatewayTests.startBound) {
                await server.partyCount == 1
            }

            // Nobody does anything: syncplay is back in the party, and follows the host.
            try await waitUntil("amy (Syncplay) back in the party", within: SyncplayGatewayTests.startBound) {
                await party.names().contains(SyncplayPartyBridge.partyName("amy"))
            }
            await party.host.request(.seek, value: 20)
            await party.host.request(.play)
            try await SyncplayGatewayTests.expectFollowing(peer, party, playing: true, beyond: 19, "mpv to play with the host after the restart")
            #expect(!peer.process.output.contains("Disconnected from server"), "syncplay never gave up")
        } catch {
            print("syncplay client log:\n\(peer.process.output)")
            await Self.stop(peer, party, restarted)
            throw error
        }
        await Self.stop(peer, party, restarted)
    }

    /// Ends the client, the host, and whichever server and gateway run now.
    static func stop(_ peer: SyncplayGatewayTests.Peer, _ party: GatewayParty,
                     _ restarted: (server: PartyServerRunner, gateway: SyncplayGatewayServer)?) async {
        await peer.stop()
        guard let restarted else { return await party.stop() }
        await restarted.gateway.stop()
        await party.host.leave()
        _ = await party.hostRun.value
        await party.host.shutDown()
        await restarted.server.stop()
    }
}
