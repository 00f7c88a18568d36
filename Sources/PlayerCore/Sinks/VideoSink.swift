/// Where presented pictures go. `present` is called on the presentation thread when the master
/// clock reaches the frame; a windowed sink hands the frame to its main thread from there.
public protocol VideoSink: AnyObject, Sendable {
    func present(_ frame: VideoFrame, hostTime: Double)
    /// No more frames will come (the player is closing).
    func finish()
    /// Seconds from ``present(_:hostTime:)`` until the picture is on the screen (a window's own
    /// drawing): the presenter hands each picture this much before its instant, so that it is *seen*
    /// on time, as the sound is heard on time. 0 for sinks that show nothing.
    var presentationDelay: Double { get }
    /// The refreshes the sink's pictures are shown on, once it knows them (a window whose presents
    /// wait for the display's refresh). With a grid, ``presentationDelay`` is the drawing without the
    /// wait for the refresh, and the presenter hands each picture that much before the refresh
    /// nearest its instant. Nil: pictures are seen when drawn (no vsync, or not learned yet).
    var refreshGrid: RefreshGrid? { get }
}

extension VideoSink {
    public var presentationDelay: Double { 0 }
    public var refreshGrid: RefreshGrid? { nil }
}

/// Discards pictures (headless playback that only needs the clock and the counters).
public final class NullVideoSink: VideoSink {
    public init() {}
    public func present(_ frame: VideoFrame, hostTime: Double) {}
    public func finish() {}
}
