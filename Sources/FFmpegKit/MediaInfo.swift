import CFFmpeg

/// What a container holds, as `tandem probe` reports it.
public struct MediaInfo: Sendable, Codable, Equatable {
    public var url: String
    /// Container format name(s), e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var container: String
    /// Seconds; nil when the container does not know.
    public var durationSeconds: Double?
    /// Container start time in seconds (positions are reported relative to it).
    public var startSeconds: Double
    public var streams: [StreamInfo]
    /// A live stream (``LiveRule``): no end, positions on the stream's own time line.
    public var live: Bool = false
}

/// One elementary stream of a container.
public struct StreamInfo: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case video, audio, subtitle, data, attachment, unknown }

    public var index: Int
    public var type: Kind
    /// Codec short name ("h264", "aac"…); "none" when FFmpeg knows no decoder id for it.
    public var codec: String
    public var timeBase: Rational
    public var durationSeconds: Double?
    /// The `language` tag (ISO 639-2, e.g. "eng"), when the container has one.
    public var language: String?
    /// The `title` tag (e.g. "Commentary", "Signs & Songs").
    public var title: String?
    /// Disposition flags: the author's default track, and a forced one (foreign-dialogue subtitles).
    public var isDefault: Bool?
    public var isForced: Bool?
    // Video
    public var width: Int?
    public var height: Int?
    /// Average frame rate (frames per second) when known.
    public var frameRate: Double?
    public var pixelFormat: String?
    /// Display-matrix rotation in degrees (counter-clockwise, as ffprobe prints it).
    public var rotation: Double?
    /// Display aspect ratio ("16:9"; "853:480"-like for odd ones) from the size and sample aspect.
    public var displayAspect: String?
    // Audio
    public var sampleRate: Int?
    public var channels: Int?
    public var sampleFormat: String?
}

/// An exact fraction, as FFmpeg keeps time bases.
public struct Rational: Sendable, Codable, Equatable, CustomStringConvertible {
    public var num: Int32
    public var den: Int32
    public init(_ num: Int32, _ den: Int32) { self.num = num; self.den = den }
    init(_ r: AVRational) { self.init(r.num, r.den) }
    var av: AVRational { AVRational(num: num, den: den) }
    public var value: Double { den == 0 ? 0 : Double(num) / Double(den) }
    public var description: String { "\(num)/\(den)" }
}
