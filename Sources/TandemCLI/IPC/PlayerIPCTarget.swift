import MPVIPC
import PlayerCore

/// mpv IPC on a local player (`tandem play --ipc`): properties read from the player, commands
/// applied to it directly.
struct PlayerIPCTarget: IPCTarget {
    let player: Player
    let onQuit: @Sendable () -> Void

    func property(_ property: IPCProperty) async -> IPCValue? {
        switch property {
        case .timePos: .double(player.position)
        case .pause: .bool(player.state != .playing)
        case .speed: .double(player.rate)
        case .duration: player.duration.map { .double($0) }
        }
    }

    func setPause(_ paused: Bool) async throws(IPCRefusal) {
        if paused { player.pause() } else { player.play() }
    }

    func setSpeed(_ speed: Double) async throws(IPCRefusal) {
        guard Player.rateRange.contains(speed) else { throw IPCRefusal("speed must be within 0.25…4") }
        player.setRate(speed)
    }

    func seek(to seconds: Double) async throws(IPCRefusal) { await player.seek(to: seconds) }

    func quit() async { onQuit() }

    func propertyChanges() -> AsyncStream<IPCPropertyChange> {
        PropertyPoller.changes { [player] in (player.state != .playing, player.rate, player.duration) }
    }
}

/// Turns polled (pause, speed, duration) values into change events, ten times a second.
enum PropertyPoller {
    static let interval: UInt64 = 100_000_000

    static func changes(_ read: @escaping @Sendable () async -> (Bool, Double, Double?)) -> AsyncStream<IPCPropertyChange> {
        AsyncStream { continuation in
            let task = Task {
                var last: (Bool, Double, Double?)?
                while !Task.isCancelled {
                    let now = await read()
                    if last?.0 != now.0 { continuation.yield(IPCPropertyChange(.pause, .bool(now.0))) }
                    if last?.1 != now.1 { continuation.yield(IPCPropertyChange(.speed, .double(now.1))) }
                    if last == nil || last?.2 != now.2 { continuation.yield(IPCPropertyChange(.duration, now.2.map { .double($0) })) }
                    last = now
                    try? await Task.sleep(nanoseconds: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
