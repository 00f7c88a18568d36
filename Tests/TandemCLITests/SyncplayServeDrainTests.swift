import Foundation
import Logging
import PartyKit
import SyncplayKit
import SyncplayClient
import Synchronization
import Testing
import TestSupport
import WebSocketTransport
@testable import TandemApp

/// `tandem serve` (the built binary) with its Syncplay gateway from the config file's `syncplay`
/// key, drained by SIGTERM: the gateway stops taking Syncplay clients at once, a Syncplay client in
/// a party is told the server is restarting with the other members — in a chat line and a close
/// without `Error`, so that it reconnects — and the drain waits for members. A new `tandem serve`
/// on the same ports, reached by the client before the host has re-created the party, hangs up on
/// it (its restart grace, no `Error`); once the host is back, the client is back in the party.
@Suite(.serialized) struct SyncplayServeDrainTests {
    /// A generous failure bound (a loaded 2-core machine), never a measurement.
    static let bound = 30.0

    @Test func aDrainStopsTheGatewayFirstAndTellsItsClientsWhoReconnectToTheNextServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-serve-syncplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("serve.json")
        // Ports the next server can listen on again (outside the range other tests' servers and
        // connections get theirs from), not ones the kernel picks.
        let (listen, syncplay) = (try LoopbackPort.free(), try LoopbackPort.free())
        try Data(#"{"listen": "127.0.0.1:\#(listen)", "insecure": true, "syncplay": "127.0.0.1:\#(syncplay)", "drain": {"seconds": 120}, "cache": {"size": 0}}"#.utf8)
            .write(to: config)

        let serve = try Self.serve(config: config, folder: folder)
        defer { serve.kill() }
        let partyPort = try #require(Int(try await serve.line(startingWith: "listening on 127.0.0.1:", within: Self.bound)
            .split(separator: ":").last ?? ""))
        // The config file's syncplay key started the gateway.
        let gatewayLine = try await serve.line(startingWith: "syncplay gateway on 127.0.0.1:", within: Self.bound)
        let gatewayPort = try #require(Int(gatewayLine.dropFirst("syncplay gateway on 127.0.0.1:".count).prefix { $0.isNumber }))

        // A host over the party protocol that stays through the drain (it ignores serverShutdown),
        // so the drain lasts until it goes.
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let host = try await Self.host(port: partyPort, logger: logger)

        let notices = NoticeLog()
        let amy = SyncplaySession(options: .init(
            host: "127.0.0.1", port: gatewayPort, core: .init(name: "amy", room: "p", password: "k", useTLS: false), file: nil,
            mediaFolders: [], playerOptions: { MemberSession.headlessPlayerOptions()(0) }, logger: logger), notices: { notices.append($0) })
        let ended = Mutex<SyncplaySession.Outcome?>(nil)
        let amyRun = Task {
            let outcome = await amy.run()
            ended.withLock { $0 = outcome }
            return outcome
        }
        try await waitUntil("amy to join the party through the gateway", within: Self.bound) { await amy.status.connected }

        serve.terminate()
        // Told at the drain's start, while the host keeps the drain going: a chat line, then a
        // close without `Error`, so she keeps trying.
        // (Her status and her notices change on their own paths: waited for together.)
        try await waitUntil("amy to lose the connection and retry", within: Self.bound) {
            let lost = notices.all.contains { if case .connectionLost = $0 { true } else { false } }
            return (await amy.status.reconnecting && lost) || ended.withLock { $0 } != nil
        }
        #expect(ended.withLock { $0 } == nil, "amy's session ended instead of reconnecting")
        #expect(notices.all.contains(.chat(from: "Tandem", text: "the server is restarting; reconnecting")))
        #expect(notices.all.contains { if case .connectionLost = $0 { true } else { false } })
        #expect(serve.isRunning, "still draining: the host is in")
        // No new Syncplay client lands in the draining server.
        try await waitUntil("the gateway to refuse connections", within: Self.bound) { await !LoopbackPort.isAccepting(gatewayPort) }
        #expect(serve.isRunning, "still draining: the host is in")

        host.close()
        let drained = try? await serve.exit(within: Self.bound)
        #expect(drained != nil, "the drain ended once the last member left")
        if let drained { #expect(drained == .exited(0)) }

        // The next server on the same ports. amy, retrying, reaches it before the host is back: the
        // party is not there yet, and within the gateway's restart grace she is hung up on without
        // an `Error` (which would end her session), so she keeps trying.
        let next = try Self.serve(config: config, folder: folder,
                                  ["--listen", "127.0.0.1:\(partyPort)", "--syncplay", "127.0.0.1:\(gatewayPort)"])
        defer { next.kill() }
        // The next server's gateway.
        _ = try await next.line(startingWith: "syncplay gateway on 127.0.0.1:\(gatewayPort)", within: Self.bound)
        let notYet = #"no party "p" on this server yet (it has just started; the host may not be back); reconnecting"#
        try await waitUntil("amy to reach the next server before the party is back", within: Self.bound) {
            notices.all.contains(.chat(from: "Tandem", text: notYet)) || ended.withLock { $0 } != nil
        }
        #expect(ended.withLock { $0 } == nil, "amy's session gave up on the next server: \(String(describing: ended.withLock { $0 }))")
        // The host re-creates the party; amy is back, by herself.
        let nextHost = try await Self.host(port: partyPort, logger: logger)
        defer { nextHost.close() }
        try await waitUntil("amy back in the party", within: Self.bound) {
            let status = await amy.status
            return (status.connected && status.users.contains { $0.username == "Hana" }) || ended.withLock { $0 } != nil
        }
        #expect(ended.withLock { $0 } == nil, "amy's session ended instead of rejoining")
        await amy.leave()
        #expect(await amyRun.value == .left)
        await amy.shutDown()
    }

    /// Starts `tandem serve --config config` (and `more`); its standard output is awaited line by line.
    static func serve(config: URL, folder: URL, _ more: [String] = []) throws -> ChildProcess {
        try ChildProcess.tandem(["serve", "--config", config.path, "--state-dir", folder.path] + more, standardError: .discard)
    }

    /// Hana, creating party "p" (key "k") over the party protocol; returns once welcomed.
    static func host(port: Int, logger: Logger) async throws -> WebSocketConnection {
        let host = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/p", logger: logger)
        let item = MediaItem(title: "party.mp4", identity: MediaIdentity(bytes: 1, duration: 60, streams: ["video"]))
        host.send(PartyProtocol.encode(.hello(Hello(party: "p", key: "k", name: "Hana", create: PartyConfig(items: [item])))))
        var inbound = host.inbound.makeAsyncIterator()
        #expect(await inbound.next()?.text.contains("welcome") == true)
        return host
    }

    /// What a session told its user, for assertions.
    final class NoticeLog: Sendable {
        private let list = Mutex<[SyncplayNotice]>([])
        func append(_ notice: SyncplayNotice) { list.withLock { $0.append(notice) } }
        var all: [SyncplayNotice] { list.withLock { $0 } }
    }
}

extension SyncplayServeDrainTests {
    /// A `syncplay` setting that is no `[HOST:]PORT` is one clear line and exit 1, before listening.
    @Test func aBadSyncplaySettingIsAClearError() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-serve-\(UUID().uuidString).json")
        try Data(#"{"listen": "127.0.0.1:0", "insecure": true, "syncplay": "nowhere"}"#.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let result = try await URLOpenErrorTests.run(["serve", "--config", config.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("tandem: syncplay must be [HOST:]PORT, not \"nowhere\"\n"), "\(result.stderr)")
    }
}
