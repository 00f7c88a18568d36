import Testing
import TestSupport
import SyncplayKit
@testable import SyncplayClient

/// A Syncplay server that sends garbage, an oversized line or a line that never ends: the session
/// fails with an error naming it, promptly, and a session beside it does not notice.
@Suite(.serialized) struct SyncplayMisbehaviourTests {
    private func session(port: Int) -> SyncplaySession {
        SyncplaySession(options: .init(host: "127.0.0.1", port: port, core: .init(name: "tandem", room: "r"), file: nil,
                                       mediaFolders: [], playerOptions: Fixtures.headless, logger: Fixtures.quietLogger),
                        notices: { _ in })
    }

    private func failure(of behaviour: FakeSyncplayServer.Behaviour) async throws -> SyncplaySession.Outcome {
        let bad = try await FakeSyncplayServer.start(behaviour)
        let good = try await FakeSyncplayServer.start(.good)
        let bystander = session(port: good.port)
        let bystanderRun = Task { await bystander.run() }
        try await waitUntil("the bystander to join", within: 10) { await bystander.status.connected }

        let victim = session(port: bad.port)
        let outcome = try await within(10, "the bad server's session to fail") { await victim.run() }
        await victim.shutDown()

        // The bystander is still in its room and still hearing states.
        #expect(await bystander.status.connected)
        await bystander.leave()
        #expect(await bystanderRun.value == .left)
        await bystander.shutDown()
        await bad.stop()
        await good.stop()
        return outcome
    }

    @Test func garbageIsAClearError() async throws {
        let outcome = try await failure(of: .garbage)
        #expect(outcome == .failed("the server sent a line that is not JSON: this is not json at all"))
    }

    @Test func anOversizedLineIsAClearError() async throws {
        let outcome = try await failure(of: .oversized(bytes: SyncplayCodec.maxLineBytes + 100))
        guard case .failed(let reason) = outcome else { Issue.record("not a failure: \(outcome)"); return }
        #expect(reason.hasPrefix("the server sent a line of more than \(SyncplayCodec.maxLineBytes) bytes"))
    }

    @Test func aLineThatNeverEndsIsAClearErrorBeforeItEnds() async throws {
        let outcome = try await failure(of: .neverEnding)
        guard case .failed(let reason) = outcome else { Issue.record("not a failure: \(outcome)"); return }
        #expect(reason.hasPrefix("the server sent a line of more than \(SyncplayCodec.maxLineBytes) bytes"))
    }

    @Test func aServerOlderThanStartTLSIsJoinedAgainWithoutIt() async throws {
        let old = try await FakeSyncplayServer.start(.preTLS)
        let notices = NoticeLog()
        let session = SyncplaySession(options: .init(host: "127.0.0.1", port: old.port, core: .init(name: "tandem", room: "r", useTLS: true),
                                                     file: nil, mediaFolders: [], playerOptions: Fixtures.headless,
                                                     logger: Fixtures.quietLogger)) { notices.append($0) }
        let run = Task { await session.run() }
        try await waitUntil("the plain session to join", within: 10) { await session.status.connected }
        #expect(notices.all.contains(.note("the server predates STARTTLS: connecting again without TLS")))
        #expect(await !session.status.encrypted)
        await session.leave()
        #expect(await run.value == .left)
        await session.shutDown()
        await old.stop()
    }

    @Test func anUnreachableServerIsAClearError() async throws {
        let closed = try await FakeSyncplayServer.start(.good)
        let port = closed.port
        await closed.stop()
        let outcome = try await within(15, "the connection to fail") { await session(port: port).run() }
        guard case .failed(let reason) = outcome else { Issue.record("not a failure: \(outcome)"); return }
        #expect(reason.hasPrefix("cannot reach the Syncplay server 127.0.0.1:\(port)"))
    }
}
