import MPVIPC
import PlayerCore
import SyncplayClient

/// mpv IPC on Tandem in a Syncplay room (`tandem join syncplay://… --ipc`): properties come from
/// the player; pause and seek are the user's own, sent to the room; speed is refused (a Syncplay
/// room has no shared rate).
struct SyncplayIPCTarget: IPCTarget {
    let session: SyncplaySession
    let onQuit: @Sendable () -> Void

    func property(_ property: IPCProperty) async -> IPCValue? {
        let player = await session.currentPlayer
        return PlayerReading.value(of: property, player: player, buffering: player?.buffer.starved ?? false)
    }

    func setPause(_ paused: Bool) async throws(IPCRefusal) { await session.setPaused(paused) }

    func setSpeed(_ speed: Double) async throws(IPCRefusal) {
        throw IPCRefusal("a Syncplay room plays at normal speed: its protocol has no shared rate")
    }

    func seek(to seconds: Double) async throws(IPCRefusal) { await session.seek(to: seconds) }

    func quit() async { onQuit() }

    func propertyChanges() -> AsyncStream<IPCPropertyChange> {
        PropertyPoller.changes { [session] in
            PropertyPoller.Reading(await session.currentPlayer.map { PlayerReading($0) })
        }
    }
}
