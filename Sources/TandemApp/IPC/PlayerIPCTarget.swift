import MPVIPC
import PlayerCore

/// mpv IPC on a local player (`tandem play --ipc`): properties read from the player, commands
/// applied to it directly.
package struct PlayerIPCTarget: IPCTarget {
    package let player: Player
    package let onQuit: @Sendable () -> Void
    /// Takes a playlist move (1 next, −1 previous) and says whether there is an item that way.
    package var onPlaylistStep: @Sendable (Int) -> Bool = { _ in false }

    package func property(_ property: IPCProperty) async -> IPCValue? {
        PlayerReading.value(of: property, player: player, buffering: player.buffer.starved)
    }

    package func setPause(_ paused: Bool) async throws(IPCRefusal) {
        if paused { player.pause() } else { player.play() }
    }

    package func setSpeed(_ speed: Double) async throws(IPCRefusal) {
        guard Player.rateRange.contains(speed) else { throw IPCRefusal("speed must be within 0.25…4") }
        player.setRate(speed)
    }

    package func seek(to seconds: Double) async throws(IPCRefusal) { await player.seek(to: seconds) }

    package func playlistStep(_ step: Int) async throws(IPCRefusal) {
        guard onPlaylistStep(step) else { throw .noPlaylistItem }
    }

    package func quit() async { onQuit() }

    package func propertyChanges() -> AsyncStream<IPCPropertyChange> {
        PropertyPoller.changes { [player] in PropertyPoller.Reading(PlayerReading(player)) }
    }
}
