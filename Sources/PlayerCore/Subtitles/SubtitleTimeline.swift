import FFmpegKit

/// One subtitle event on the media timeline, with an identity that survives copies (libass is given
/// each event once, however many pictures show it).
public struct SubtitleCue: Sendable, Equatable {
    public let id: Int
    /// Media seconds from the container start.
    public var start: Double
    /// Nil: until the next cue starts.
    public var end: Double?
    public var content: SubtitleEvent.Content

    public func covers(_ time: Double) -> Bool { start <= time && end.map { time < $0 } ?? true }
}

/// The decoded events of one subtitle track, kept in start order: added as packets decode, looked up
/// by media time at each picture, pruned once they ended (embedded tracks) and cleared on a seek.
public struct SubtitleTimeline: Sendable {
    /// Cues that ended this long before the shown time are dropped: a subtitle delay change of a few
    /// seconds (z/x) can still bring them back, while memory stays bounded over a long film.
    public static let retention = 5.0

    public private(set) var cues: [SubtitleCue] = []
    private var nextID = 0

    public init() {}

    /// Adds a decoded event (times already on the media timeline). An open-ended cue before it ends
    /// where it starts; an empty event (a bitmap format's "clear") only ends its predecessor.
    public mutating func add(_ event: SubtitleEvent) {
        for i in cues.indices where cues[i].end == nil && cues[i].start < event.start {
            cues[i].end = event.start
        }
        guard !event.isEmpty else { return }
        if let end = event.end, end <= event.start { return }
        nextID += 1
        let cue = SubtitleCue(id: nextID, start: event.start, end: event.end, content: event.content)
        let index = cues.lastIndex { $0.start <= cue.start }.map { $0 + 1 } ?? 0
        cues.insert(cue, at: index)
    }

    /// The cues shown at media `time`, in start order.
    public func active(at time: Double) -> [SubtitleCue] {
        cues.filter { $0.covers(time) }
    }

    /// Drops cues that ended ``retention`` before `time`.
    public mutating func prune(before time: Double) {
        cues.removeAll { $0.end.map { $0 < time - Self.retention } ?? false }
    }

    public mutating func removeAll() { cues.removeAll() }
}
