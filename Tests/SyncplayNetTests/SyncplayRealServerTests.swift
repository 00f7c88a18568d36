import Foundation
import Synchronization
import Testing
import TestSupport
import SyncplayKit
@testable import SyncplayClient

/// Tandem in a room on Debian's real syncplay-server with a real syncplay + mpv client, all on
/// loopback: pause and seek from either side reach the other (mpv read over its own IPC socket).
@Suite(.serialized) struct SyncplayRealServerTests {
    /// Generous failure bounds: a loaded 2-core machine (the suite runs in parallel, other builds
    /// beside it) starts Python and mpv slowly, and a syncplay client acts on a state change on its
    /// next poll of mpv. Nothing waits for them to pass.
    static let startBound = 60.0
    static let propagationBound = 40.0

    @Test func pauseAndSeekReachTheOtherSideBothWays() async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the real Syncplay test: \(missing)")
            return
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-syncplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let port = try LoopbackPort.free()
        let server = try SyncplayProcess(SyncplayBinaries.server, ["--port", String(port)], home: home, log: "server.log")
        defer { server.stop() }
        try await LoopbackPort.waitForListener(port, within: Self.startBound)

        let socket = home.appendingPathComponent("mpv.sock").path
        let peer = try SyncplayProcess(SyncplayBinaries.client, [
            "--no-gui", "--no-store", "-a", "127.0.0.1:\(port)", "-n", "mpvpeer", "-r", "room1",
            "--player-path", SyncplayBinaries.mpv, Fixtures.partyFile,
            "--", "--vo=null", "--ao=null", "--input-ipc-server=\(socket)",
        ], home: home, log: "peer.log")
        defer {
            peer.stop()
            SyncplayProcess.killDescendants(holding: socket)
        }
        let mpv = try await MPVClient.connect(path: socket, within: Self.startBound)

        let notices = NoticeLog()
        let session = SyncplaySession(options: .init(
            host: "127.0.0.1", port: port, core: .init(name: "tandem", room: "room1", useTLS: true), file: Fixtures.partyFile,
            mediaFolders: [], playerOptions: Fixtures.headless, logger: Fixtures.quietLogger)) { notices.append($0) }
        let run = Task { await session.run() }
        defer { run.cancel() }
        try await waitUntil("Tandem to join with its file open", within: Self.startBound) {
            let status = await session.status
            let player = await session.currentPlayer
            return status.connected && player != nil && status.file != nil
        }
        try await waitUntil("Tandem to see mpvpeer", within: Self.startBound) {
            notices.all.contains(.userJoined("mpvpeer")) || notices.all.contains { notice in
                if case .users(let entries) = notice { entries.contains { $0.username == "mpvpeer" } } else { false }
            }
        }

        // Asked for STARTTLS, a server without a certificate says no: joined in plain text, and told so.
        #expect(await !session.status.encrypted)
        #expect(notices.all.contains(.note("the server offers no TLS: the connection is not encrypted")))

        // mpv resumes: Tandem plays. (Syncplay may take the first unpause as "ready" and pause
        // again until everyone is: ask again while mpv stays paused.)
        try await waitUntil("mpv's resume to reach Tandem", within: Self.propagationBound) {
            if (try? await mpv.get("pause"))?.bool == true { try? await mpv.set("pause", .bool(false)) }
            let paused = await session.status.paused
            let player = await session.currentPlayer
            return !paused && player?.state == .playing
        }

        // Tandem pauses: mpv pauses.
        await session.setPaused(true)
        try await waitUntil("Tandem's pause to reach mpv", within: Self.propagationBound) {
            (try? await mpv.get("pause"))?.bool == true
        }
        #expect(notices.all.contains(.resumed(by: "mpvpeer")))

        // Tandem seeks to 30 s: mpv follows.
        await session.seek(to: 30)
        try await waitUntil("Tandem's seek to reach mpv", within: Self.propagationBound) {
            guard let position = (try? await mpv.get("time-pos"))?.double else { return false }
            return abs(position - 30) < 1.5
        }

        // mpv seeks to 10 s: Tandem follows.
        try await mpv.set("time-pos", .number(10))
        try await waitUntil("mpv's seek to reach Tandem", within: Self.propagationBound) {
            guard let position = await session.currentPlayer?.position else { return false }
            return abs(position - 10) < 1.5
        }
        #expect(notices.all.contains { if case .seeked(by: "mpvpeer", _) = $0 { true } else { false } })

        // mpv pauses after playing again: Tandem pauses.
        await session.setPaused(false)
        try await waitUntil("Tandem's resume to reach mpv", within: Self.propagationBound) {
            (try? await mpv.get("pause"))?.bool == false
        }
        try await mpv.set("pause", .bool(true))
        try await waitUntil("mpv's pause to reach Tandem", within: Self.propagationBound) {
            let paused = await session.status.paused
            let player = await session.currentPlayer
            return paused && player?.state == .paused
        }

        await session.leave()
        #expect(await run.value == .left)
        await session.shutDown()
        _ = try? await mpv.command([.string("quit")])
        await mpv.close()
    }
}

extension SyncplayRealServerTests {
    @Test func theServerPasswordIsCheckedAsSyncplayChecksIt() async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the Syncplay password test: \(missing)")
            return
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-syncplay-pw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let port = try LoopbackPort.free()
        let server = try SyncplayProcess(SyncplayBinaries.server, ["--port", String(port), "--password", "s3cret"], home: home, log: "server.log")
        defer { server.stop() }
        try await LoopbackPort.waitForListener(port, within: Self.startBound)
        func session(_ password: String) -> SyncplaySession {
            SyncplaySession(options: .init(host: "127.0.0.1", port: port, core: .init(name: "tandem", room: "r", password: password, useTLS: true),
                                           file: nil, mediaFolders: [], playerOptions: Fixtures.headless, logger: Fixtures.quietLogger),
                            notices: { _ in })
        }
        let wrong = session("nope")
        let refused = try await within(Self.startBound, "the wrong password to be refused") { await wrong.run() }
        await wrong.shutDown()
        #expect(refused == .failed("the server said: Wrong password supplied"))

        let right = session("s3cret")
        let run = Task { await right.run() }
        try await waitUntil("the right password to be let in", within: Self.startBound) { await right.status.connected }
        await right.leave()
        #expect(await run.value == .left)
        await right.shutDown()
    }
}

/// Notices as they come, for assertions.
final class NoticeLog: Sendable {
    private let notices = Mutex<[SyncplayNotice]>([])
    func append(_ notice: SyncplayNotice) { notices.withLock { $0.append(notice) } }
    var all: [SyncplayNotice] { notices.withLock { $0 } }
}
