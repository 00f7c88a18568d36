import Foundation
import Logging
import PartyKit
import PartyServer
import ServiceLifecycle
import Synchronization
import Testing
import TestSupport
import WebSocketTransport
@testable import PartyService

extension PartyServerServiceTests {
    /// An in-process member (a Syncplay client at the gateway, `PartyServerRunner.connectLocal`) is a
    /// member like one over a WebSocket: counted in `tandem_members`, told the server is restarting
    /// when the drain begins (after the `drainBegins` hook: the gateway stops taking clients first),
    /// and waited for.
    @Test func aDrainTellsAndWaitsForInProcessMembers() async throws {
        let fixture = try await PartyServiceFixture.start(logger: Self.logger)
        #expect(fixture.welcomed)
        let (server, adminPort, host) = (fixture.server, fixture.adminPort, fixture.host)

        // What the in-process member hears, in order; and what the drain did first.
        let heard = Mutex<[PartyServerRunner.LocalEvent]>([])
        let local = await server.connectLocal(source: "127.0.0.1:4242") { event in heard.withLock { $0.append(event) } }
        await server.receiveLocal(local, .hello(Hello(party: "p", key: "k", name: "amy (Syncplay)")))
        try await waitUntil("the in-process member to be welcomed: \(heard.withLock { $0 })") {
            heard.withLock { $0.contains { if case .message(.welcome) = $0 { true } else { false } } }
        }
        let toldWhenDrainBegan = Mutex<Bool?>(nil)
        let drainBegins: @Sendable () async -> Void = {
            toldWhenDrainBegan.withLock { $0 = heard.withLock { $0.contains(where: Self.isRestarting) } }
        }

        let (group, running) = fixture.run(drainSeconds: 60, logger: Self.logger, drainBegins: drainBegins)
        _ = try await Self.metrics(adminPort, untilTheyShow: "tandem_members 2.0")

        await group.triggerGracefulShutdown()
        try await waitUntil("the in-process member to be told the server is restarting") { heard.withLock { $0.contains(where: Self.isRestarting) } }
        #expect(toldWhenDrainBegan.withLock { $0 } == false, "the drainBegins hook ran before members were told")
        // The WebSocket member leaves; the in-process one is still in, so the drain goes on.
        host.close()
        try await waitUntil("the WebSocket member to be gone, the in-process one counted") { await server.memberCount == 1 }
        #expect(try await Self.get(adminPort, "/healthz") == (503, "draining\n"))

        let clock = ContinuousClock()
        let left = clock.now
        await server.disconnectLocal(local)
        try await running.value
        #expect(clock.now - left < .seconds(30), "the drain ended when the in-process member left, not at its bound")
    }

    static func isRestarting(_ event: PartyServerRunner.LocalEvent) -> Bool {
        if case .message(.error(let error)) = event { error.code == .serverShutdown && error.message == PartyServerService.restartingMessage } else { false }
    }
}
