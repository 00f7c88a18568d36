/// A player property that mpv IPC clients can read, set or observe.
///
/// The raw value is the property's name in mpv (`"time-pos"`, `"pause"`, ...), which is what
/// clients send in `get_property`, `set_property` and `observe_property`.
public enum IPCProperty: String, Sendable, Hashable, CaseIterable {
    /// Current playback position in seconds (`Double`). Setting it seeks to an absolute position.
    case timePos = "time-pos"
    /// Whether playback is paused (`Bool`).
    case pause
    /// Playback speed factor (`Double`, 1 is normal speed; mpv's range 0.01 ... 100).
    case speed
    /// Duration of the current file in seconds (`Double`); read-only, may be unavailable.
    case duration
    /// Tandem's own, read-only: `time-pos` and `pause` together with the instant they hold for, on the
    /// machine's monotonic clock (`CLOCK_MONOTONIC`, seconds):
    /// `{"time-pos": 12.5, "pause": false, "at": 80412.003117}`. A tool on the same machine can carry
    /// several players' positions to one instant exactly, whatever the delay before and after the
    /// reply (``IPCValue/sample(position:paused:at:)``).
    case timeSample = "tandem-time-sample"
    /// Tandem's own, read-only: the stream time (seconds, on the input's own timestamps) that
    /// `time-pos` 0 is (`Double`; mpv's old `time-start`). `time-pos` plus this is the moment of the
    /// stream shown, comparable between players of one live stream whenever each entered it.
    case streamStart = "tandem-stream-start"
    /// Whether playback waits for its stream to refill (`Bool`, mpv's `paused-for-cache`); read-only.
    case pausedForCache = "paused-for-cache"
}
