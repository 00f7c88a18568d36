/// Where presented pictures go. `present` is called on the presentation thread when the master
/// clock reaches the frame; a windowed sink hands the frame to its main thread from there.
public protocol VideoSink: AnyObject, Sendable {
    func present(_ frame: VideoFrame, hostTime: Double)
    /// No more frames will come (the player is closing).
    func finish()
}

/// Discards pictures (headless playback that only needs the clock and the counters).
public final class NullVideoSink: VideoSink {
    public init() {}
    public func present(_ frame: VideoFrame, hostTime: Double) {}
    public func finish() {}
}
