import FFmpegKit

/// A decoded picture on its way to presentation. Times are media seconds relative to the
/// container start; `timestamp` keeps the exact value in the stream time base.
public struct VideoFrame: Sendable {
    public let frame: Frame
    public let position: Double
    public let duration: Double
    public let timestamp: Int64
    public let timeBase: Rational
}

/// Decoded audio on its way to the renderer.
public struct AudioFrame: Sendable {
    public let frame: Frame
    /// Media position of the first sample kept.
    public let position: Double
    /// Samples per channel to skip at the head (accurate seek lands inside a frame).
    public let skip: Int

    public var keptSamples: Int { frame.sampleCount - skip }
    public var duration: Double { Double(keptSamples) / Double(frame.sampleRate) }
}

public typealias PacketQueue = StreamQueue<Packet>
public typealias VideoFrameQueue = StreamQueue<VideoFrame>
public typealias AudioFrameQueue = StreamQueue<AudioFrame>

extension Queued where Payload == AudioFrame {
    /// Media position of an audio payload (nil for the end marker).
    var payloadPosition: Double? {
        if case .payload(let frame) = entry { return frame.position }
        return nil
    }
}
