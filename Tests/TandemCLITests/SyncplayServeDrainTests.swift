import Foundation
import Logging
import NIOPosix
import PartyKit
import SyncplayKit
import SyncplayClient
import Synchronization
import Testing
import WebSocketTransport
@testable import TandemCLI
@testable import TandemApp
@testable import TandemBench

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
        try Data(#"{"listen": "127.0.0.1:0", "insecure": true, "syncplay": "127.0.0.1:0", "drain": {"seconds": 120}, "cache": {"size": 0}}"#.utf8)
            .write(to: config)

        let (serve, lines) = try Self.serve(config: config, folder: folder)
        defer { Self.stopProcess(serve) }
        let partyPort = try #require(lines.line(startingWith: "listening on 127.0.0.1:").flatMap { Int($0.split(separator: ":").last ?? "") })
        let gatewayLine = try #require(lines.line(startingWith: "syncplay gateway on 127.0.0.1:"), "the config file's syncplay key started the gateway")
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
        try await Self.eventually("amy to join the party through the gateway") { await amy.status.connected }

        kill(serve.processIdentifier, SIGTERM)
        // Told at the drain's start, while the host keeps the drain going: a chat line, then a
        // close without `Error`, so she keeps trying.
        try await Self.eventually("amy to lose the connection and retry") {
            await amy.status.reconnecting || ended.withLock { $0 } != nil
        }
        #expect(ended.withLock { $0 } == nil, "amy's session ended instead of reconnecting")
        #expect(notices.all.contains(.chat(from: "Tandem", text: "the server is restarting; reconnecting")))
        #expect(notices.all.contains { if case .connectionLost = $0 { true } else { false } })
        #expect(serve.isRunning, "still draining: the host is in")
        // No new Syncplay client lands in the draining server.
        try await Self.eventually("the gateway to refuse connections") {
            guard let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: gatewayPort).get() else { return true }
            try? await channel.close()
            return false
        }
        #expect(serve.isRunning, "still draining: the host is in")

        host.close()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(Self.bound)
        while serve.isRunning, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!serve.isRunning, "the drain ended once the last member left")
        if !serve.isRunning { #expect(serve.terminationStatus == 0) }

        // The next server on the same ports. amy, retrying, reaches it before the host is back: the
        // party is not there yet, and within the gateway's restart grace she is hung up on without
        // an `Error` (which would end her session), so she keeps trying.
        let (next, nextLines) = try Self.serve(config: config, folder: folder,
                                               ["--listen", "127.0.0.1:\(partyPort)", "--syncplay", "127.0.0.1:\(gatewayPort)"])
        defer { Self.stopProcess(next) }
        _ = try #require(nextLines.line(startingWith: "syncplay gateway on 127.0.0.1:\(gatewayPort)"), "the next server's gateway")
        let notYet = #"no party "p" on this server yet (it has just started; the host may not be back); reconnecting"#
        try await Self.eventually("amy to reach the next server before the party is back") {
            notices.all.contains(.chat(from: "Tandem", text: notYet)) || ended.withLock { $0 } != nil
        }
        #expect(ended.withLock { $0 } == nil, "amy's session gave up on the next server: \(String(describing: ended.withLock { $0 }))")
        // The host re-creates the party; amy is back, by herself.
        let nextHost = try await Self.host(port: partyPort, logger: logger)
        defer { nextHost.close() }
        try await Self.eventually("amy back in the party") {
            let status = await amy.status
            return (status.connected && status.users.contains { $0.username == "Hana" }) || ended.withLock { $0 } != nil
        }
        #expect(ended.withLock { $0 } == nil, "amy's session ended instead of rejoining")
        await amy.leave()
        #expect(await amyRun.value == .left)
        await amy.shutDown()
    }

    /// Starts `tandem serve --config config` (and `more`) with its standard output read line by line.
    static func serve(config: URL, folder: URL, _ more: [String] = []) throws -> (Process, LineReader) {
        let serve = Process()
        serve.executableURL = try URLOpenErrorTests.binary()
        serve.arguments = ["serve", "--config", config.path, "--state-dir", folder.path] + more
        let output = Pipe()
        serve.standardOutput = output
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        return (serve, LineReader(output.fileHandleForReading))
    }

    static func stopProcess(_ serve: Process) {
        if serve.isRunning { Foundation.kill(serve.processIdentifier, SIGKILL) }
        serve.waitUntilExit()
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

    /// Polls `condition` every 50 ms; fails after ``bound``.
    static func eventually(_ what: String, _ condition: @Sendable () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(bound)
        while !(await condition()) {
            guard Date() < deadline else {
                Issue.record("timed out after \(bound) s waiting for \(what)")
                throw CancellationError()
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// A process's standard output, line by line (blocking: a test's own thread).
    final class LineReader: @unchecked Sendable {
        let handle: FileHandle
        init(_ handle: FileHandle) { self.handle = handle }

        func line() -> String? {
            var bytes = [UInt8]()
            while let chunk = try? handle.read(upToCount: 1), let b = chunk.first {
                if b == 0x0A { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(b)
            }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }

        func line(startingWith prefix: String) -> String? {
            while let l = line() { if l.hasPrefix(prefix) { return l } }
            return nil
        }
    }
}

extension SyncplayServeDrainTests {
    /// A `syncplay` setting that is no `[HOST:]PORT` is one clear line and exit 1, before listening.
    @Test func aBadSyncplaySettingIsAClearError() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-serve-\(UUID().uuidString).json")
        try Data(#"{"listen": "127.0.0.1:0", "insecure": true, "syncplay": "nowhere"}"#.utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let result = try URLOpenErrorTests.run(["serve", "--config", config.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("tandem: syncplay must be [HOST:]PORT, not \"nowhere\"\n"), "\(result.stderr)")
    }
}
