import Foundation
import NIOCore
import PartyKit
import Testing
import TestSupport
import SyncplayKit
@testable import SyncplayGateway
@testable import SyncplayClient

/// Issue #13 part 4(c) at the gateway: a fake Syncplay client sends garbage, an oversized line, a
/// line that never ends, or wrong passwords: it gets a clear `Error` and the close, while Tandem's
/// own Syncplay client beside it (in the same party, through the gateway) stays in and keeps
/// following. Also: the password is the party key, and wrong ones count toward the key limiter.
@Suite(.serialized) struct SyncplayGatewayMisbehaviourTests {
    static let bound = 20.0

    static func hello(room: String, password: String? = GatewayParty.key, name: String = "mallory") -> SyncplayMessage {
        .hello(SyncplayHello(username: name, password: password.map(SyncplayPrivacy.passwordDigest), room: room,
                             version: "1.2.255", realVersion: "1.6.9"))
    }

    /// Tandem's Syncplay client (no player file: it follows the room's state only) in `party`.
    static func bystander(_ party: GatewayParty) async throws -> (SyncplaySession, Task<SyncplaySession.Outcome, Never>) {
        let session = SyncplaySession(options: .init(
            host: "127.0.0.1", port: party.gateway.port,
            core: .init(name: "tandem", room: party.party, password: GatewayParty.key, useTLS: true),
            file: nil, mediaFolders: [], playerOptions: Fixtures.headless, logger: Fixtures.quietLogger), notices: { _ in })
        let run = Task { await session.run() }
        try await waitUntil("the bystander to join through the gateway", within: Self.bound) {
            let connected = await session.status.connected
            let names = await party.names()
            return connected && names.contains(SyncplayPartyBridge.partyName("tandem"))
        }
        return (session, run)
    }

    /// Runs `misbehave` with a fake peer beside a bystander; returns what the peer was told.
    /// `partyGrace`: the gateway's (``SyncplayRestartGrace``).
    static func misbehaving(partyGrace: Double = SyncplayRestartGrace.standardLength,
                            _ misbehave: @escaping @Sendable (RawSyncplayPeer, GatewayParty) async throws -> Void) async throws -> String {
        let party = try await GatewayParty.start(control: .everyone, partyGrace: partyGrace)
        let (bystander, run) = try await Self.bystander(party)
        let peer = try await RawSyncplayPeer.connect(port: party.gateway.port)
        try await misbehave(peer, party)
        try await waitUntil("the gateway to close the misbehaving peer", within: Self.bound) { peer.isClosed }
        let told = peer.text
        await peer.close()

        // The bystander is still in, and still follows the party: the host pauses, it pauses.
        await party.host.request(.play)
        try await waitUntil("the bystander to follow the host's play", within: Self.bound) { await !bystander.status.paused }
        await party.host.request(.pause)
        try await waitUntil("the bystander to follow the host's pause", within: Self.bound) { await bystander.status.paused }
        #expect(await bystander.status.connected)
        #expect(await !party.names().contains(SyncplayPartyBridge.partyName("mallory")))
        await bystander.leave()
        #expect(await run.value == .left)
        await bystander.shutDown()
        await party.stop()
        return told
    }

    @Test func garbageIsAClearError() async throws {
        let told = try await Self.misbehaving { peer, _ in try await peer.send("this is not json at all\r\n") }
        #expect(told.contains(#"{"Error":{"message":"refused a line that is not JSON: this is not json at all"}}"#), "\(told)")
    }

    @Test func garbageAfterJoiningIsAClearErrorAndTheMemberLeaves() async throws {
        let told = try await Self.misbehaving { peer, party in
            try await peer.send(Self.hello(room: party.party))
            try await waitUntil("mallory to join", within: Self.bound) {
                await party.names().contains(SyncplayPartyBridge.partyName("mallory"))
            }
            try await peer.send(#"{"State": {"playstate": {"position": "soon"}}}"# + "\r\n")
        }
        #expect(told.contains(#""Hello":"#), "\(told)")
        #expect(told.contains(#"{"Error":{"message":"refused a State playstate whose position is not a number"}}"#), "\(told)")
    }

    @Test func anOversizedLineIsAClearError() async throws {
        let told = try await Self.misbehaving { peer, _ in
            try await peer.send("{\"Chat\": \"" + String(repeating: "a", count: SyncplayCodec.maxLineBytes + 100) + "\"}\r\n")
        }
        #expect(told.contains("refused a line of more than \(SyncplayCodec.maxLineBytes) bytes"), "\(told)")
    }

    @Test func aLineThatNeverEndsIsAClearErrorBeforeItEnds() async throws {
        let told = try await Self.misbehaving { peer, _ in
            // Past the limit, and never a line's end: the gateway must not wait for one.
            let chunk = String(repeating: "x", count: 8192)
            for _ in 0...(SyncplayCodec.maxLineBytes / chunk.count + 1) where !peer.isClosed { try? await peer.send(chunk) }
        }
        #expect(told.contains("refused a line of more than \(SyncplayCodec.maxLineBytes) bytes"), "\(told)")
    }

    @Test func theSyncplayPasswordIsThePartyKey() async throws {
        let told = try await Self.misbehaving { peer, party in try await peer.send(Self.hello(room: party.party, password: "guess")) }
        #expect(told.contains(#"{"Error":{"message":"Wrong password supplied"}}"#), "\(told)")

        let missing = try await Self.misbehaving { peer, party in try await peer.send(Self.hello(room: party.party, password: nil)) }
        #expect(missing.contains("Password required"), "\(missing)")

        // Past the gateway's restart grace (none here), an unknown room is final.
        let unknown = try await Self.misbehaving(partyGrace: 0) { peer, _ in try await peer.send(Self.hello(room: "no-such-party")) }
        #expect(unknown.contains(#"{"Error":{"message":"no party \"no-such-party\" on this server (the room is the party ID)"}}"#), "\(unknown)")
    }

    /// Wrong Syncplay passwords count toward the party server's wrong-key limit of the address: past
    /// it, even the right password is refused (a guesser cannot use the gateway to go around it).
    @Test func wrongPasswordsCountTowardTheKeyLimiter() async throws {
        let party = try await GatewayParty.start(control: .everyone)
        for attempt in 0..<WrongKeyLimiter.Policy.standard.limit {
            let peer = try await RawSyncplayPeer.connect(port: party.gateway.port)
            try await peer.send(Self.hello(room: party.party, password: "guess \(attempt)"))
            try await waitUntil("wrong password \(attempt) to be refused", within: Self.bound) { peer.isClosed }
            #expect(peer.text.contains("Wrong password supplied"))
            await peer.close()
        }
        let peer = try await RawSyncplayPeer.connect(port: party.gateway.port)
        try await peer.send(Self.hello(room: party.party))
        try await waitUntil("the right password to be refused too", within: Self.bound) { peer.isClosed }
        #expect(peer.text.contains("too many wrong keys from this address"), "\(peer.text)")
        await peer.close()
        await party.stop()
    }

    /// Over IPv6 too: every connection from one address counts toward the same limit (its port is not
    /// part of the address it is counted by), so reconnecting gains a guesser nothing.
    @Test func wrongPasswordsOverIPv6CountPerAddress() async throws {
        let party = try await GatewayParty.start(control: .everyone)
        let gateway: SyncplayGatewayServer
        do {
            gateway = try await SyncplayGatewayServer.start(host: "::1", port: 0, parties: party.server, logger: Fixtures.quietLogger)
        } catch {
            await party.stop()
            print("skipping the IPv6 wrong-password test: no IPv6 loopback here (\(error))")
            return
        }
        for attempt in 0..<WrongKeyLimiter.Policy.standard.limit {
            let peer = try await RawSyncplayPeer.connect(host: "::1", port: gateway.port)
            try await peer.send(Self.hello(room: party.party, password: "guess \(attempt)"))
            try await waitUntil("wrong password \(attempt) to be refused", within: Self.bound) { peer.isClosed }
            #expect(peer.text.contains("Wrong password supplied"))
            await peer.close()
        }
        let peer = try await RawSyncplayPeer.connect(host: "::1", port: gateway.port)
        try await peer.send(Self.hello(room: party.party))
        try await waitUntil("the right password to be refused too", within: Self.bound) { peer.isClosed }
        #expect(peer.text.contains("too many wrong keys from this address"), "\(peer.text)")
        await peer.close()
        await gateway.stop()
        await party.stop()
    }

    @Test func aClientIsCountedByItsAddressWithIPv6InBrackets() throws {
        #expect(SyncplayGatewayServer.describe(try SocketAddress(ipAddress: "::1", port: 4000)) == "[::1]:4000")
        #expect(SyncplayGatewayServer.describe(try SocketAddress(ipAddress: "192.0.2.7", port: 4000)) == "192.0.2.7:4000")
        #expect(WrongKeyLimiter.source(ofPeer: SyncplayGatewayServer.describe(try SocketAddress(ipAddress: "2001:db8::5", port: 4000)))
                == "[2001:db8:0:0::]/64")
    }
}
