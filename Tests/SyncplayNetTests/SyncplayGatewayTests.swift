import Foundation
import MediaTime
import Testing
import SyncplayKit
@testable import SyncplayNet

/// A room of the test's own: a media line anchored on the monotonic clock; requests accepted or
/// refused as told.
actor TestRoom: SyncplayRoomHost {
    let clock = MonotonicTimeSource()
    var anchor = 0.0
    var anchoredAt = 0.0
    var paused = true
    var requests: [SyncplayServerCore.Request] = []
    var joined: [String] = []

    func room() -> SyncplayServerCore.Room {
        .init(position: paused ? anchor : anchor + (clock.now() - anchoredAt), paused: paused, setBy: "host")
    }

    func set(position: Double, paused: Bool) {
        anchor = position
        anchoredAt = clock.now()
        self.paused = paused
    }

    func join(name: String, room: String) -> String {
        joined.append(name)
        return name + " (Syncplay)"
    }

    func request(_ request: SyncplayServerCore.Request, from name: String) -> Bool {
        requests.append(request)
        switch request {
        case .pause(let at): set(position: at, paused: true)
        case .play(let at): set(position: at, paused: false)
        case .seek(let to): set(position: to, paused: paused)
        }
        return true
    }

    func chat(_ text: String, from name: String) {}
    func left(_ name: String) {}
}

/// A real syncplay + mpv client in a room served by ``SyncplayGatewayServer`` (the gateway's
/// Syncplay side): it follows the room's play, pause and seek, and its own pause arrives as a request.
/// (A refused request is forced back: unit-tested in SyncplayServerCoreTests; Syncplay's client
/// reverts a resume itself while it is settling readiness, so it is not asserted here.)
@Suite(.serialized) struct SyncplayGatewayTests {
    @Test func aRealSyncplayClientFollowsTheRoomAndItsPauseIsARequest() async throws {
        if let missing = SyncplayBinaries.missing {
            print("skipping the Syncplay gateway test: \(missing)")
            return
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-syncplay-gw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let room = TestRoom()
        let gateway = try await SyncplayGatewayServer.start(host: "127.0.0.1", port: 0,
                                                            passwordDigest: SyncplayPrivacy.passwordDigest("party-key"), room: room)
        let socket = home.appendingPathComponent("mpv.sock").path
        let peer = try ChildProcess(SyncplayBinaries.client, [
            "--no-gui", "--no-store", "-a", "127.0.0.1:\(gateway.port)", "-n", "amy", "-r", "party1", "-p", "party-key",
            "--player-path", SyncplayBinaries.mpv, TestSupport.partyFile,
            "--", "--vo=null", "--ao=null", "--input-ipc-server=\(socket)",
        ], home: home, log: "peer.log")
        defer {
            peer.stop()
            ChildProcess.killDescendants(holding: socket)
        }
        let mpv = try await MPVClient.connect(path: socket, within: SyncplayRealServerTests.startBound)
        try await TestSupport.eventually(SyncplayRealServerTests.startBound, "the client to join the room") { await room.joined == ["amy"] }

        // Syncplay loads the file once the room's playlist is settled; a seek before that is lost.
        try await TestSupport.eventually(SyncplayRealServerTests.startBound, "mpv to load the file") {
            (try? await mpv.get("duration"))?.double != nil
        }

        // The room plays from 20 s: mpv follows.
        await room.set(position: 20, paused: false)
        await gateway.roomChanged(doSeek: true)
        try await TestSupport.eventually(SyncplayRealServerTests.propagationBound, "mpv to play from 20 s") {
            guard (try? await mpv.get("pause"))?.bool == false, let position = (try? await mpv.get("time-pos"))?.double else { return false }
            return position > 19 && position < 30
        }

        // mpv pauses: the room is asked to pause.
        try await mpv.set("pause", .bool(true))
        try await TestSupport.eventually(SyncplayRealServerTests.propagationBound, "mpv's pause to reach the room") {
            await room.requests.contains { if case .pause = $0 { true } else { false } }
        }
        #expect(await room.room().paused)

        // The room seeks to 40 s, paused: mpv follows.
        await room.set(position: 40, paused: true)
        await gateway.roomChanged(doSeek: true)
        try await TestSupport.eventually(SyncplayRealServerTests.propagationBound, "mpv to seek to 40 s") {
            guard let position = (try? await mpv.get("time-pos"))?.double else { return false }
            return abs(position - 40) < 1.5
        }
        _ = try? await mpv.command([.string("quit")])
        await mpv.close()
        await gateway.stop()
        #expect(peer.output.contains("party1"), "\(peer.output)")
    }
}
