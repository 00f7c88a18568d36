import Testing
@testable import SyncplayKit

/// Tandem's Syncplay client reconnects as Syncplay's does: after a lost connection (never after the
/// server's `Error`), waiting 0.1 s × 2^min(try, 5), for a bounded number of tries.
@Suite struct SyncplayReconnectTests {
    @Test func aLostConnectionIsReconnectedAnErrorIsNot() {
        var lost = CoreHarness.loggedIn()
        #expect(lost.core.connectionClosed() == [.reconnect("the server closed the connection")])
        var refused = CoreHarness.loggedIn()
        #expect(refused.core.receive(.error("the party: no such thing"), now: refused.now, player: nil)
            == [.fail("the server said: the party: no such thing")])
        // A server that never let us in is no server to wait for.
        var never = CoreHarness()
        _ = never.core.connected(now: never.now)
        #expect(never.core.connectionClosed() == [.fail("the server closed the connection before welcoming us")])
        // A TLS handshake that failed (an untrusted certificate) is final, as for Syncplay.
        var tls = CoreHarness(useTLS: true)
        _ = tls.core.connected(now: tls.now)
        _ = tls.core.receive(.hello(SyncplayHello(username: "tandem", room: "r1", version: "1.6.9")), now: tls.now, player: nil)
        _ = tls.core.connectionClosed()
        _ = tls.core.connected(now: tls.now)
        _ = tls.core.receive(.tls(startTLS: "true"), now: tls.now, player: nil)
        #expect(tls.core.connectionClosed(cause: "certificate verify failed") == [.fail("the connection closed while starting TLS: certificate verify failed")])
    }

    @Test func theNewConnectionSaysHelloAgainAndAnnouncesTheFileKeptOpen() {
        var h = CoreHarness.loggedIn()
        _ = h.state(position: 20, paused: false, player: .init(position: 20))
        _ = h.core.connectionClosed()
        h.now += 5
        #expect(h.core.connected(now: h.now) == [.send(.hello(h.core.hello))])
        #expect(h.core.room == nil, "the room's state comes again from the server")
        let welcome = h.core.receive(.hello(SyncplayHello(username: "tandem", room: "r1", version: "1.6.9")), now: h.now, player: nil)
        #expect(CoreHarness.notices(welcome).first == .connected(room: "r1", name: "tandem", serverVersion: "1.6.9", motd: nil))
        #expect(CoreHarness.sent(welcome).contains(.set([.file(SyncplayFile(name: "party.mp4", duration: 60, size: .bytes(1234)))])))
        // The first state after it puts the player on the room's line.
        let shows = CoreHarness.shows(h.state(position: 42, paused: true, player: .init(position: 25)))
        #expect(shows.first?.position == 42)
    }

    @Test func theWaitsGrowAsSyncplaysAndTheTriesAreBounded() {
        var policy = SyncplayReconnect(limit: 8)
        var waits: [Double] = []
        while let wait = policy.nextDelay() { waits.append(wait) }
        #expect(waits.map { ($0 * 10).rounded() / 10 } == [0.2, 0.4, 0.8, 1.6, 3.2, 3.2, 3.2, 3.2])
        #expect(policy.nextDelay() == nil)
        policy.rejoined()
        #expect(policy.nextDelay().map { ($0 * 10).rounded() / 10 } == 0.2)
        #expect(SyncplayReconnect().limit == 999)
    }
}
