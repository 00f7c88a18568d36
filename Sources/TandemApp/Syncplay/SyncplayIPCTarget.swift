import MPVIPC
import PlayerCore
import SyncplayClient

/// mpv IPC on Tandem in a Syncplay room (`tandem join syncplay://… --ipc`): properties come from
/// the player; pause and seek are the user's own, sent to the room; speed is refused (a Syncplay
/// room has no shared rate).
package struct SyncplayIPCTarget: IPCTarget {
    package init(session: SyncplaySession, onQuit: @escaping @Sendable () -> Void) {
        self.session = session
        self.onQuit = onQuit
    }

    package let session: SyncplaySession
    package let onQuit: @Sendable () -> Void

    package func property(_ property: IPCProperty) async -> IPCValue? {
        let player = await session.currentPlayer
        return PlayerReading.value(of: property, player: player, buffering: player?.buffer.starved ?? false)
    }

    package func setPause(_ paused: Bool) async throws(IPCRefusal) { await session.setPaused(paused) }

    package func setSpeed(_ speed: Double) async throws(IPCRefusal) {
        throw IPCRefusal("a Syncplay room plays at normal speed: its protocol has no shared rate")
    }

    package func seek(to seconds: Double) async throws(IPCRefusal) { await session.seek(to: seconds) }

    package func quit() async { onQuit() }

    package func propertyChanges() -> AsyncStream<IPCPropertyChange> {
        PropertyPoller.changes { [session] in
            PropertyPoller.Reading(await session.currentPlayer.map { PlayerReading($0) })
        }
    }
}
