import Foundation
import Logging
import NIOCore
import NIOPosix
import PartyKit
import Synchronization
import TandemBase
import Testing
import WebSocketTransport
@testable import PartyService

/// `tandem serve` composed (``ServeApplication``), in this process on loopback: its parts stop in
/// the group's reverse order after the drain, and a part that cannot start ends the whole group with
/// its one error, leaving nothing listening.
@Suite(.serialized) struct ServeApplicationTests {
    /// A generous failure bound (a loaded 2-core machine), never a measurement.
    static let bound = Duration.seconds(60)

    /// What the application printed and logged, in order.
    final class Record: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }

        /// A logger whose lines (message, then the `part` stopped, if any) go here.
        func logger() -> Logger { Logger(label: "test.serve") { _ in Handler(sink: self) } }

        struct Handler: LogHandler {
            let sink: Record
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .info
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                sink.add("\(event.message)" + (event.metadata?["part"].map { " \($0)" } ?? ""))
            }
        }
    }

    static func settings(admin: String? = "127.0.0.1:0", syncplay: String? = "127.0.0.1:0", drainSeconds: Double = 60) -> ServiceSettings {
        var s = ServiceSettings()
        s.listen = "127.0.0.1:0"
        s.insecure = true
        s.cacheSizeMB = 0
        s.adminListen = admin
        s.syncplay = syncplay
        s.drainSeconds = drainSeconds
        return s
    }

    /// The port in the first printed line starting with `prefix` (`… on HOST:PORT …`).
    static func port(in lines: [String], _ prefix: String) -> Int? {
        guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
    }

    /// Whether something listens on 127.0.0.1:`port`.
    static func listening(_ port: Int) async -> Bool {
        guard let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get() else { return false }
        try? await channel.close()
        return true
    }

    /// Polls `condition` every 20 ms; fails after ``bound`` (not a measurement).
    static func until(_ what: String, _ condition: () async -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + bound
        while !(await condition()) {
            guard clock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Runs `application` to its end: its error, if any; a run still going after ``bound`` is a failure
    /// (the group did not end), then shut down.
    static func outcome(of application: ServeApplication) async -> (any Error)? {
        let running = Task { try await application.run() }
        let watchdog = Task {
            try await Task.sleep(for: bound)
            Issue.record("the group did not end")
            await application.triggerGracefulShutdown()
        }
        defer { watchdog.cancel() }
        do { try await running.value } catch { return error }
        return nil
    }

    /// A `public.address` that is not `HOST[:PORT]` is refused before anything listens, naming it.
    @Test func aBadPublicAddressIsNamed() {
        var settings = Self.settings()
        settings.publicAddress = "home.example.org:0"
        #expect(throws: ServeError("public.address: the port of \"home.example.org:0\" must be a number from 1 to 65535")) {
            _ = try ServeApplication(settings: settings, signals: false, say: { _ in }, warn: { _ in })
        }
    }

    /// The admin port cannot be had (another server holds it): `run()` throws that one error, the
    /// party port, already listening, is closed, and the gateway after the admin port never listened.
    @Test func anAdminPortTakenEndsTheGroupWithOneErrorAndNothingListening() async throws {
        let record = Record()
        let holder = AdminServer(metrics: ServerMetrics(), logger: Logger(label: "test.holder"))
        let taken = try await holder.start(host: "127.0.0.1", port: 0)
        let application = try ServeApplication(settings: Self.settings(admin: "127.0.0.1:\(taken)"), signals: false,
                                               logger: record.logger(), say: record.add, warn: { _ in })
        let error = await Self.outcome(of: application)
        await holder.stop()

        let message = (error as? ServeError)?.description ?? "\(String(describing: error))"
        #expect(message.hasPrefix("cannot listen on 127.0.0.1:\(taken) (admin): "), "\(message)")
        let printed = record.all.filter { $0.contains(" on ") }
        #expect(printed.count == 1 && printed.first?.hasPrefix("listening on 127.0.0.1:") == true, "\(record.all)")
        let port = try #require(Self.port(in: printed, "listening on 127.0.0.1:"))
        #expect(await !Self.listening(port), "the party port was left listening")
        // Cancelled, not drained: no member was told anything, and the party port stopped.
        #expect(!record.all.contains("draining"), "\(record.all)")
        #expect(record.all.contains("stopped party port"), "\(record.all)")
    }

    /// A graceful shutdown drains first — the gateway stops listening, `/healthz` turns 503, members
    /// are told — while every part still runs; once the last member has gone, the parts stop in the
    /// reverse of their order: the gateway, the party port, the admin port.
    @Test func aShutdownDrainsThenStopsThePartsInReverseOrder() async throws {
        let record = Record()
        let application = try ServeApplication(settings: Self.settings(), signals: false, logger: record.logger(),
                                               say: record.add, warn: { _ in })
        let running = Task { try await application.run() }
        try await Self.until("every part to listen") { record.all.contains { $0.hasPrefix("syncplay gateway on ") } }
        let said = record.all.filter { $0.contains(" on ") }
        #expect(said.count == 3 && said[0].hasPrefix("listening on 127.0.0.1:") && said[1].hasPrefix("admin listening on 127.0.0.1:")
                && said[2].hasPrefix("syncplay gateway on 127.0.0.1:"), "printed in their order: \(said)")
        let port = try #require(Self.port(in: said, "listening on 127.0.0.1:"))
        let adminPort = try #require(Self.port(in: said, "admin listening on 127.0.0.1:"))
        let gatewayPort = try #require(Self.port(in: said, "syncplay gateway on 127.0.0.1:"))

        let quiet = Logger(label: "test.member")
        let member = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/p", logger: quiet)
        let item = MediaItem(title: "party.mp4", identity: MediaIdentity(bytes: 1, duration: 60, streams: ["video"]))
        member.send(PartyProtocol.encode(.hello(Hello(party: "p", key: "k", name: "h", create: PartyConfig(items: [item])))))
        var inbound = member.inbound.makeAsyncIterator()
        #expect(await inbound.next()?.text.contains("welcome") == true)

        await application.triggerGracefulShutdown()
        var told = false
        while let message = await inbound.next() {
            if message.text.contains("serverShutdown") {
                told = message.text.contains(PartyServerService.restartingMessage)
                break
            }
        }
        #expect(told, "the member was told the server is restarting")
        // Draining, the member still in: the gateway takes no one, the other parts still run.
        #expect(await !Self.listening(gatewayPort), "the gateway stopped listening when the drain began")
        #expect(await Self.listening(port))
        #expect(await Self.listening(adminPort))
        #expect(!record.all.contains { $0.hasPrefix("stopped") }, "nothing stopped while members are in: \(record.all)")

        member.close()
        try await running.value
        let order = record.all.filter { ["draining", "drained"].contains($0) || $0.hasPrefix("stopped") }
        #expect(order == ["draining", "drained", "stopped syncplay gateway", "stopped party port", "stopped admin port"], "\(record.all)")
        #expect(await !Self.listening(port))
        #expect(await !Self.listening(adminPort))
    }
}
