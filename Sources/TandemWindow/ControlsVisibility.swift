/// When the playback window shows its progress bar, clock and mouse pointer (mpv's OSC and
/// cursor autohide): after ``hideDelay`` without input while playing they hide; any key, mouse
/// move, click or wheel brings them back. While paused they stay. A pure state machine: the
/// window feeds it input and asks it each turn.
public struct ControlsVisibility: Sendable, Equatable {
    /// mpv's `cursor-autohide` default (1000 ms); its OSC hides after about as long.
    public static let hideDelay = 1.0

    /// Host time of the last input; nil until the first turn (the controls show at the start).
    private var lastInput: Double?

    public init() {}

    /// A key, mouse move, click or wheel at `now`.
    public mutating func input(at now: Double) { lastInput = now }

    /// Whether the controls show at `now`; the first call starts the delay.
    public mutating func visible(at now: Double, paused: Bool) -> Bool {
        let last = lastInput ?? now
        lastInput = last
        return paused || now - last < Self.hideDelay
    }
}
