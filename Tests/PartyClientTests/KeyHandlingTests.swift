import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import Synchronization
import Testing
import TestSupport
import WebSocketTransport

/// Keys on a real server over loopback: wrong keys limited per address (party and media), nothing
/// lists parties, and no log line at any level carries a key or a media token.
@Suite(.serialized) struct KeyHandlingTests {
    /// Every log record of the loggers made from it, at trace level, with its metadata.
    final class CapturedLogs: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }

        func logger(_ label: String) -> Logger {
            var logger = Logger(label: label) { label in Handler(label: label, sink: self) }
            logger.logLevel = .trace
            return logger
        }

        fileprivate func add(_ line: String) { lines.withLock { $0.append(line) } }

        struct Handler: LogHandler {
            let label: String
            let sink: CapturedLogs
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
                let error = event.error.map { " error=\($0)" } ?? ""
                sink.add("\(label) \(event.level) \(event.message) \(all.map { "\($0)=\($1)" }.sorted().joined(separator: " "))\(error)")
            }
        }
    }

    static let key = "trace-me-if-you-can-7QpX"

    @Test func noLogLineCarriesTheKeyOrTheMediaToken() async throws {
        let logs = CapturedLogs()
        let notices = PartyLoopbackTests.Notices()
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: logs.logger("server"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "quiet-owl-11", key: Self.key, insecure: true)
        server.media.serve(party: link.party, key: Self.key, files: [0: PartyLoopbackTests.media + "/party.mp4"])
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }

        func member(_ name: String, create: PartyConfig? = nil, folders: [String]) -> PartyMember {
            PartyMember(options: .init(link: link, name: name, create: create, mediaFolders: folders,
                                       playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                       logger: logs.logger(name)), notices: { notices.add($0) })
        }
        let host = member("Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]), folders: [PartyLoopbackTests.media])
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.synced })
        // The guest has no copy: it streams the party's with the media token.
        let guest = member("Gus", folders: [empty.path])
        let guestRun = Task { await guest.run() }
        #expect(await eventually(within: 30) { await guest.status.synced })
        await host.request(.play)
        await guest.chat("hello")
        #expect(await eventually(within: 30) { (await guest.status.position ?? 0) > 0.5 })
        #expect(server.media.servedBodies > 0, "the guest never streamed")
        // A wrong key and a stranger's wrong media token, for their log lines.
        let wrong = PartyMember(options: .init(link: PartyLink(host: "127.0.0.1", port: port, party: link.party, key: "not-" + Self.key, insecure: true),
                                               name: "Eve", mediaFolders: [],
                                               playerOptions: { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) },
                                               logger: logs.logger("Eve")), notices: { notices.add($0) })
        guard case .failed = await wrong.run() else { Issue.record("a wrong key joined"); return }
        await host.leave()
        _ = await hostRun.value
        _ = await guestRun.value
        await host.shutDown()
        await guest.shutDown()
        await wrong.shutDown()
        await server.stop()

        let token = MediaToken.derive(key: Self.key, party: link.party)
        let everything = logs.all + notices.all
        #expect(logs.all.count > 20, "too few log lines to mean anything: \(logs.all)")
        #expect(logs.all.contains { $0.contains("wrong key") })
        for line in everything {
            #expect(!line.contains(Self.key), "a log line carries the key: \(line)")
            #expect(!line.contains(token), "a log line carries the media token: \(line)")
        }
    }

    @Test func tenWrongKeysFromAnAddressAndItIsRefusedWithAReason() async throws {
        let logs = CapturedLogs()
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: logs.logger("server"))
        let port = try await server.start()
        let rightHello = { (key: String) in
            PartyProtocol.encode(.hello(Hello(party: "p", key: key, name: "x")))
        }
        func answer(_ text: String) async throws -> String {
            let client = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/p", logger: Logger(label: "t"))
            client.send(text)
            // The server's one answer to a hello: an error (then a close) or a welcome.
            var replies = client.inbound.makeAsyncIterator()
            let answer = await replies.next()?.text ?? ""
            client.close()
            return answer
        }
        let host = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: "/party/p", logger: Logger(label: "t"))
        host.send(PartyProtocol.encode(.hello(Hello(party: "p", key: "right", name: "h", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")])))))
        var hostMessages = host.inbound.makeAsyncIterator()
        #expect(await hostMessages.next()?.text.contains("welcome") == true)

        for i in 0..<WrongKeyLimiter.Policy.standard.limit {
            #expect(try await answer(rightHello("guess-\(i)")).contains("wrong key for party"))
        }
        let refused = try await answer(rightHello("right"))
        #expect(refused.contains("too many wrong keys from this address; try again in"), "\(refused)")
        #expect(!refused.contains("welcome"))
        // The refusal was sent in the step of the server's actor that logs it, after the answer went
        // on its way: a call to the actor runs once that step is over, so the line is in by then.
        _ = await server.partyCount
        #expect(logs.all.contains { $0.contains("too many wrong keys") && $0.contains("127.0.0.1") })
        #expect(!logs.all.contains { $0.contains("guess-") })
        host.close()
        await server.stop()
    }

    @Test func mediaRequestsWithWrongTokensAreLimitedToo() async throws {
        try await MediaServingTests.withServer { port, _ in
            let path = MediaServingTests.path
            // No credential at all is not a guess: never counted.
            for _ in 0..<12 { #expect(try await RawHTTP.get(port: port, path).status == 403) }
            #expect(try await RawHTTP.get(port: port, path, headers: MediaServingTests.auth).status == 200)
            for i in 0..<WrongKeyLimiter.Policy.standard.limit {
                let wrong = ["Authorization": "Bearer " + String(repeating: "\(i % 10)", count: 64)]
                #expect(try await RawHTTP.get(port: port, path, headers: wrong).status == 403)
            }
            let refused = try await RawHTTP.get(port: port, path, headers: MediaServingTests.auth)
            #expect(refused.status == 429)
            #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 > 0)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("too many wrong keys from this address"))
        }
    }

    @Test(arguments: ["/party", "/party/", "/party/movie-night", "/party/movie-night/", "/party/movie-night/media",
                      "/party/movie-night/media/", "/", "/parties", "/party/?list"])
    func nothingListsParties(path: String) async throws {
        try await MediaServingTests.withServer { port, _ in
            let answer = try await RawHTTP.get(port: port, path, headers: MediaServingTests.auth)
            #expect(answer.status == 404, "\(path): \(answer.status)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains(MediaServingTests.party))
        }
    }
}
