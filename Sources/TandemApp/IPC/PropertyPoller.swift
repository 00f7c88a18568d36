import MPVIPC

/// Reads the player's `pause`, `speed`, `duration` and `paused-for-cache` over and over and streams their changes to
/// the IPC server (``IPCTarget/propertyChanges()``).
package enum PropertyPoller {
    /// Longest wait between two readings: a change made at once (a local pause, a new item) reaches
    /// observers within this. mpv tools poll at similar rates; more often would cost CPU for nothing.
    package static let interval = 0.1
    /// Shortest wait, so that a scheduled instant a hair away does not make the loop spin.
    package static let minimumWait = 0.001

    /// One reading: the values, and the seconds until a scheduled change (a party command's instant)
    /// when one is pending, so that its event goes out on that instant rather than up to
    /// ``interval`` later.
    package struct Reading: Sendable {
        package var paused: Bool
        package var speed: Double
        package var duration: Double?
        package var untilScheduledChange: Double?
        /// Waiting for its stream to refill (`paused-for-cache`).
        package var pausedForCache = false
    }

    /// How long to wait after `reading` before the next one.
    package static func wait(after reading: Reading) -> Double {
        max(min(reading.untilScheduledChange ?? interval, interval), minimumWait)
    }

    package static func changes(_ read: @escaping @Sendable () async -> Reading) -> AsyncStream<IPCPropertyChange> {
        AsyncStream { continuation in
            let task = Task {
                var watch = IPCPropertyWatch()
                while !Task.isCancelled {
                    let reading = await read()
                    for change in watch.observed(paused: reading.paused, speed: reading.speed, duration: reading.duration,
                                                      pausedForCache: reading.pausedForCache) {
                        continuation.yield(change)
                    }
                    try? await Task.sleep(for: .seconds(wait(after: reading)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension PropertyPoller.Reading {
    /// The reading of a player, or of no player yet (paused, speed 1, no duration).
    package init(_ player: PlayerReading?) {
        self.init(paused: player?.isPaused ?? true, speed: player?.rate ?? 1, duration: player?.duration,
                  untilScheduledChange: player?.untilScheduledChange)
    }
}
