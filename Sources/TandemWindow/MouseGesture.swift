/// What a mouse event means in the playback window (mpv's default mouse bindings and OSC):
/// a click or drag on the progress bar seeks there, a double click elsewhere toggles
/// fullscreen, the wheel seeks. Pure: pixels and clicks in, an action out.
public enum MouseGesture: Sendable, Equatable {
    /// mpv's wheel binding: up seeks 10 s on, down 10 s back.
    public static let wheelSeek = 10.0
    /// The band at the bottom of the window that counts as the progress bar (the clock's line and
    /// the bar, in output pixels): a thin bar alone is too hard to hit.
    public static let barBandHeight = 44

    /// Seek to this fraction (0…1) of the duration.
    case seekToFraction(Double)
    /// Seek by this many seconds.
    case seek(Double)
    case toggleFullscreen

    /// The fraction of the bar at `x` in a window `width` pixels wide (the bar spans the width less
    /// the overlay's margins), clamped to 0…1.
    public static func fraction(x: Int, width: Int, margin: Int) -> Double {
        let span = max(1, width - 2 * margin)
        return min(max(Double(x - margin) / Double(span), 0), 1)
    }

    /// Whether (x, y) is on the progress bar's band of a window of `width`×`height`.
    public static func onBar(y: Int, height: Int) -> Bool { y >= height - barBandHeight && y < height }

    /// A left-button press at (x, y), the `clicks`th in a row.
    public static func press(x: Int, y: Int, clicks: Int, width: Int, height: Int, margin: Int) -> MouseGesture? {
        if onBar(y: y, height: height) { return .seekToFraction(fraction(x: x, width: width, margin: margin)) }
        return clicks == 2 ? .toggleFullscreen : nil
    }

    /// A wheel turn: `steps` up (positive) or down.
    public static func wheel(steps: Int) -> MouseGesture? {
        steps == 0 ? nil : .seek(steps > 0 ? wheelSeek : -wheelSeek)
    }
}
