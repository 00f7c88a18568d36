/// Counters reported at the end of playback.
public struct PlaybackStats: Sendable, Equatable, Codable {
    public var videoFrames = 0
    /// Audio samples per channel, at the source rate.
    public var audioSamples = 0
    public var droppedFrames = 0
    /// Problems met and played through (each also a `.warning` event).
    public var warnings = 0
    /// Media position where the last presented picture or sample ends.
    public var endPosition = 0.0
    public init() {}
}
