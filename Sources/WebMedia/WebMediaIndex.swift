import Foundation

/// `index.json`: what the page needs to play an item through Media Source Extensions — the plan,
/// the MIME type for `MediaSource.isTypeSupported`, the `timestampOffset` that puts the fragmented
/// MP4's timestamps back on the item's timeline, the duration, the segments' spans, and the
/// subtitle tracks (docs/protocol.md, "The browser page").
public struct WebMediaIndex: Codable, Sendable, Equatable {
    /// One segment's span on the item's timeline, in seconds.
    public struct Span: Codable, Sendable, Equatable {
        public var start: Double
        public var end: Double
    }

    /// One text subtitle track, served at `subs/INDEX.vtt`.
    public struct Track: Codable, Sendable, Equatable {
        public var index: Int
        public var language: String?
        public var title: String?
        public var `default`: Bool
    }

    /// "direct", "remux" or "unplayable".
    public var plan: String
    /// Why it is unplayable.
    public var reason: String?
    /// The remuxed sound: "none", "copy" or "transcode"; nil when no segments are made.
    public var audio: String?
    /// `video/mp4; codecs="avc1.64001f, mp4a.40.2"`; nil when no segments are made.
    public var type: String?
    /// Seconds to set `SourceBuffer.timestampOffset` to.
    public var timestampOffset: Double?
    /// Seconds.
    public var duration: Double
    /// Empty when no segments are made.
    public var segments: [Span]
    public var subtitles: [Track]
    /// Lines for people: tracks left out and why.
    public var notes: [String]

    /// Times are written to the microsecond: finer than any frame, and far shorter JSON.
    static func rounded(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }

    /// The index of an item planned as `plan`, with its `geometry` when it is remuxed.
    init(plan: WebMediaPlan, geometry: RemuxGeometry?, layout: MediaLayout?) {
        self.plan = plan.kind.rawValue
        reason = plan.reason
        duration = Self.rounded(layout?.duration ?? 0)
        subtitles = (layout?.subtitles ?? []).enumerated().map { i, track in
            Track(index: i, language: track.language, title: track.title, default: track.isDefault)
        }
        notes = layout?.notes ?? []
        guard let geometry else {
            audio = nil
            type = nil
            timestampOffset = nil
            segments = []
            return
        }
        audio = geometry.audio.rawValue
        type = geometry.mimeType
        timestampOffset = Self.rounded(geometry.timestampOffset)
        let index = geometry.index, layout = geometry.layout
        segments = (0..<index.count).map { k in
            let span = index.span(k, containerStart: layout.containerStart, duration: layout.duration)
            return Span(start: Self.rounded(span.start), end: Self.rounded(span.end))
        }
    }

    /// The JSON bytes (keys sorted, so the same index is the same bytes).
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
