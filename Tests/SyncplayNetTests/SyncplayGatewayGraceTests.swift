import Foundation
import Testing
import TestSupport
import PartyKit
@testable import PartyClient
import SyncplayKit
@testable import SyncplayGateway

/// Issue #14 follow-up at a real gateway, with a raw Syncplay client over TCP: just after the
/// gateway started, a room naming no party (its host may not have re-created it after a restart)
/// is a chat line from "Tandem" and the close, with no `Error` line, so that Syncplay's client
/// tries again; the same gateway still lets a client of an existing party in. A gateway past its
/// grace (none) answers the missing party with the final `Error`.
@Suite(.serialized) struct SyncplayGatewayGraceTests {
    static let bound = 20.0

    /// What a raw client saying hello for `room` with the party key is told until the gateway at
    /// `port` closes the connection, line by line.
    static func told(room: String, port: Int) async throws -> [SyncplayMessage] {
        let peer = try await RawSyncplayPeer.connect(port: port)
        try await peer.send(SyncplayGatewayMisbehaviourTests.hello(room: room))
        try await waitUntil("the gateway to close the client of room \(room)", within: Self.bound) { peer.isClosed }
        let text = peer.text
        await peer.close()
        var messages: [SyncplayMessage] = []
        for line in text.split(separator: "\r\n") { messages += try SyncplayCodec.decode(String(line)) }
        return messages
    }

    @Test func aMissingPartyJustAfterTheGatewayStartedIsAHangUpWithoutError() async throws {
        let party = try await GatewayParty.start(control: .everyone)
        let notYet = #"no party "gone" on this server yet (it has just started; the host may not be back); reconnecting"#
        let told = try await Self.told(room: "gone", port: party.gateway.port)
        #expect(told == [.chat(SyncplayChat(username: SyncplayServerCore.gatewayName, message: notYet))],
                "a chat line and the close, no Error (Syncplay's client would stop retrying)")

        // The party that is there: welcomed as ever.
        let peer = try await RawSyncplayPeer.connect(port: party.gateway.port)
        try await peer.send(SyncplayGatewayMisbehaviourTests.hello(room: party.party, name: "amy"))
        try await waitUntil("amy to be welcomed into the party", within: Self.bound) {
            let inParty = await party.names().contains(SyncplayPartyBridge.partyName("amy"))
            return inParty && peer.text.contains(#""Hello":"#)
        }
        #expect(!peer.isClosed)
        await peer.close()

        // A gateway past its grace on the same server: the missing party is final.
        let late = try await SyncplayGatewayServer.start(host: "127.0.0.1", port: 0, parties: party.server, partyGrace: 0,
                                                          logger: Fixtures.quietLogger)
        #expect(try await Self.told(room: "gone", port: late.port)
                == [.error(#"no party "gone" on this server (the room is the party ID)"#)])
        await late.stop()
        await party.stop()
    }

    /// The grace is long enough for a Tandem host to be back: it gives up reconnecting after
    /// `PartyMember.reconnectGiveUp` seconds without the server.
    @Test func theGraceOutlastsAHostsReconnecting() {
        #expect(SyncplayRestartGrace.standardLength >= PartyMember.reconnectGiveUp)
    }
}
