import MPVIPC
import PartyKit
import PartyClient
import PlayerCore

/// mpv IPC on a party member (`tandem host/join --ipc`): properties come from the member's player
/// (so `pause` changes on the command's instant, for the host as for guests: ``PlayerReading``);
/// pause, speed and seek become party requests (the server may refuse them: the refusal is shown
/// as a notice, as the party's rules say).
package struct PartyIPCTarget: IPCTarget {
    package let member: PartyMember
    package let onQuit: @Sendable () -> Void

    package func property(_ property: IPCProperty) async -> IPCValue? {
        let player = await member.currentPlayer
        let buffering = property == .pausedForCache ? await Self.isBuffering(member) : false
        return PlayerReading.value(of: property, player: player, buffering: buffering)
    }

    /// Whether this member's stream ran dry and it waits for it to refill: its own presence, as
    /// the party lists it.
    package static func isBuffering(_ member: PartyMember) async -> Bool {
        let status = await member.status
        return status.participants.first { $0.id == status.me?.id }?.presence?.isBuffering == true
    }

    package func setPause(_ paused: Bool) async throws(IPCRefusal) { await member.request(paused ? .pause : .play) }

    package func setSpeed(_ speed: Double) async throws(IPCRefusal) {
        guard Player.rateRange.contains(speed) else { throw IPCRefusal("speed must be within 0.25…4") }
        await member.request(.rate, value: speed)
    }

    package func seek(to seconds: Double) async throws(IPCRefusal) { await member.request(.seek, value: seconds) }

    package func quit() async { onQuit() }

    package func propertyChanges() -> AsyncStream<IPCPropertyChange> {
        PropertyPoller.changes { [member] in
            var reading = PropertyPoller.Reading(await member.currentPlayer.map { PlayerReading($0) })
            reading.pausedForCache = await Self.isBuffering(member)
            return reading
        }
    }
}
