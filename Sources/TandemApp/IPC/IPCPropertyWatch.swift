import MPVIPC

/// Turns successive readings of `pause`, `speed` and `duration` into the changes the IPC server
/// forwards to observers: each property when its value differs from the last one reported
/// (everything on the first reading). A small state machine: one event, ``observed(paused:speed:duration:)``.
package struct IPCPropertyWatch: Sendable {
    private var last: (paused: Bool, speed: Double, duration: Double?)?
    /// `paused-for-cache` as last reported (false until a stream first runs dry).
    private var pausedForCache = false

    /// A new reading; returns the changes to report, in the order pause, speed, duration,
    /// paused-for-cache (the last only when it changes from false: most players never buffer).
    package mutating func observed(paused: Bool, speed: Double, duration: Double?, pausedForCache: Bool = false) -> [IPCPropertyChange] {
        var changes: [IPCPropertyChange] = []
        if last?.paused != paused { changes.append(IPCPropertyChange(.pause, .bool(paused))) }
        if last?.speed != speed { changes.append(IPCPropertyChange(.speed, .double(speed))) }
        if last == nil || last?.duration != duration {
            changes.append(IPCPropertyChange(.duration, duration.map { .double($0) }))
        }
        if pausedForCache != self.pausedForCache { changes.append(IPCPropertyChange(.pausedForCache, .bool(pausedForCache))) }
        self.pausedForCache = pausedForCache
        last = (paused, speed, duration)
        return changes
    }
}
