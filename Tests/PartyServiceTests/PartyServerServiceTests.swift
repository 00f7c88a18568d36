import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import PartyKit
import PartyClient
import ServiceLifecycle
import Testing
import TestSupport
import WebSocketTransport
@testable import PartyService

/// The service on real sockets: the admin port's answers, and a graceful shutdown that drains.
@Suite(.serialized) struct PartyServerServiceTests {
    static let logger = Logger(label: "test")

    /// GET over real HTTP: status and body.
    static func get(_ port: Int, _ path: String, method: String = "GET") async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Reads `/metrics` until `line` is in it (gauges refresh once a second), within a generous bound.
    static func metrics(_ port: Int, untilTheyShow line: String) async throws -> String {
        var text = ""
        let shown = try await eventually(every: .milliseconds(100)) {
            text = try await get(port, "/metrics").body
            return text.split(separator: "\n").contains(Substring(line))
        }
        if !shown { Issue.record("/metrics never showed \(line): \(text)") }
        return text
    }

    @Test func theAdminPortAnswersHealthAndMetricsAndNothingElse() async throws {
        let metrics = ServerMetrics()
        let admin = AdminServer(metrics: metrics, logger: Self.logger)
        let port = try await admin.start(host: "127.0.0.1", port: 0)
        defer { Task { await admin.stop() } }
        #expect(try await Self.get(port, "/healthz") == (200, "ok\n"))
        metrics.set(parties: 3, members: 7, draining: false)
        metrics.memberReported(skewMs: -0.4, rttMs: 60)
        let text = try await Self.get(port, "/metrics").body
        #expect(text.contains("tandem_parties 3.0") && text.contains("tandem_members 7.0"), "\(text)")
        #expect(text.contains("tandem_member_skew_ms_bucket{le=\"0.5\"} 1"), "|skew| 0.4 falls under 0.5 ms: \(text)")
        #expect(text.contains("tandem_member_rtt_ms_bucket{le=\"50.0\"} 0") || text.contains("tandem_member_rtt_ms_bucket{le=\"50\"} 0"), "\(text)")
        #expect(try await Self.get(port, "/party/p").status == 404)
        #expect(try await Self.get(port, "/healthz", method: "POST").status == 405)
        admin.startDraining()
        #expect(try await Self.get(port, "/healthz") == (503, "draining\n"))
    }

    @Test func aGracefulShutdownTellsMembersAndWaitsForThemToLeave() async throws {
        var fixture = try await PartyServiceFixture.start(logger: Self.logger)
        #expect(fixture.welcomed)
        let (port, adminPort, member) = (fixture.port, fixture.adminPort, fixture.host)

        let drainBound = 60.0
        let (group, running) = fixture.run(drainSeconds: drainBound, logger: Self.logger)
        _ = try await Self.metrics(adminPort, untilTheyShow: "tandem_members 1.0")
        // What passes is counted as it passes (from the service's start: the hello came before it);
        // the member's own skew and round trip go to the histograms.
        member.send(PartyProtocol.encode(.status(Status(epoch: 0, state: .ready, skewMs: -0.3, rttMs: 12))))
        // The round trip is recorded after the skew: once it shows, both do (a scrape can fall between).
        let counted = try await Self.metrics(adminPort, untilTheyShow: "tandem_member_rtt_ms_count 1")
        #expect(counted.contains("tandem_messages_received_total 1\n"), "\(counted)")
        #expect(counted.contains("tandem_member_skew_ms_bucket{le=\"0.5\"} 1") && counted.contains("tandem_member_rtt_ms_bucket{le=\"25.0\"} 1"),
                "\(counted)")
        #expect(!counted.contains("tandem_messages_sent_total 0"), "\(counted)")

        await group.triggerGracefulShutdown()
        var told = false
        while let message = await fixture.inbound.next() {
            if message.text.contains("serverShutdown") {
                #expect(message.text.contains(PartyServerService.restartingMessage))
                told = true
                break
            }
        }
        #expect(told, "the member was told the server is restarting")
        // It has not left: the server is draining, and says so to load balancers.
        #expect(try await Self.get(adminPort, "/healthz") == (503, "draining\n"))
        #expect(try await Self.metrics(adminPort, untilTheyShow: "tandem_draining 1.0").contains("tandem_members 1.0"))

        let clock = ContinuousClock()
        let left = clock.now
        member.close()
        try await running.value
        #expect(clock.now - left < .seconds(drainBound / 2), "the drain ended when the member left, not at its bound")
        await #expect(throws: (any Error).self) {
            _ = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/p", logger: Self.logger)
        }
    }
}
