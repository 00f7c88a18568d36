import FFmpegKit

/// Where an item's segments begin: at keyframes of its video, about ``targetSeconds`` apart, or
/// every ``fixedSeconds`` of a file with sound only. Segment k holds what is presented from its
/// start up to the next one's; the first also holds anything before it, the last anything after.
/// Each segment starts with a keyframe, so it decodes on its own and can be made, fetched and
/// appended in any order (a seek anywhere is one segment away). Pure: built from timestamps.
public struct SegmentIndex: Sendable, Equatable {
    /// A segment's length aimed at: long enough that its moof, its keyframe and its request cost
    /// little, short enough that a seek waits for little more than one.
    public static let targetSeconds = 2.0
    /// A cut is moved to an earlier keyframe rather than let a segment grow past this (when the
    /// keyframes allow: a segment never starts anywhere else, so a file with keyframes 10 s apart
    /// has 10 s segments).
    public static let maxSeconds = 5.0
    /// The length of each segment of a file with sound only (every audio packet starts one).
    public static let fixedSeconds = 2.0

    /// The presentation timestamp each segment starts at, increasing, in ``timeBase`` units of the
    /// stream that cuts them (the video, else the sound).
    public let starts: [Int64]
    /// The cutting stream's time base.
    public let timeBase: Rational
    /// Whether the starts are video keyframes (else fixed lengths of sound).
    public let atKeyframes: Bool

    public init(starts: [Int64], timeBase: Rational, atKeyframes: Bool) {
        self.starts = starts
        self.timeBase = timeBase
        self.atKeyframes = atKeyframes
    }

    /// Segments cut at `keyframes` (presentation timestamps, any order): each at the first
    /// keyframe at least ``targetSeconds`` after its start, or at the last one before that when the
    /// first is more than ``maxSeconds`` away.
    public static func cutting(keyframes: [Int64], timeBase: Rational) -> SegmentIndex {
        let sorted = Array(Set(keyframes)).sorted()
        guard var start = sorted.first else { return SegmentIndex(starts: [], timeBase: timeBase, atKeyframes: true) }
        let target = ticks(targetSeconds, timeBase), longest = ticks(maxSeconds, timeBase)
        var starts = [start]
        var i = 1
        while i < sorted.count {
            // The first keyframe at or past the target; the last one before it when that is too far.
            var j = i
            while j < sorted.count, sorted[j] - start < target { j += 1 }
            guard j < sorted.count else { break }  // the rest is shorter than a segment: it stays in the last
            let cut = sorted[j] - start > longest && j > i ? j - 1 : j
            start = sorted[cut]
            starts.append(start)
            i = cut + 1
        }
        return SegmentIndex(starts: starts, timeBase: timeBase, atKeyframes: true)
    }

    /// Segments of ``fixedSeconds`` from `first` to `end` (sound only).
    public static func fixed(from first: Int64, to end: Int64, timeBase: Rational) -> SegmentIndex {
        let step = max(1, ticks(fixedSeconds, timeBase))
        let starts = Array(stride(from: first, to: max(end, first + 1), by: Int(step)))
        return SegmentIndex(starts: starts, timeBase: timeBase, atKeyframes: false)
    }

    public var count: Int { starts.count }

    /// The segment that holds presentation timestamp `pts` (the first for anything before it, the
    /// last for anything after).
    public func segment(holding pts: Int64) -> Int {
        var low = 0, high = starts.count - 1
        guard high > 0 else { return 0 }
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= pts { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Whether segment `k` holds `pts`.
    public func holds(_ k: Int, _ pts: Int64) -> Bool {
        (k == 0 || pts >= starts[k]) && (k == starts.count - 1 || pts < starts[k + 1])
    }

    /// Segment `k`'s span in seconds on the item's timeline (seconds from the container's start,
    /// as players report positions): the first from 0, the last to `duration`.
    public func span(_ k: Int, containerStart: Double, duration: Double) -> (start: Double, end: Double) {
        let start = k == 0 ? 0 : Double(starts[k]) * timeBase.value - containerStart
        let end = k == starts.count - 1 ? max(duration, start) : Double(starts[k + 1]) * timeBase.value - containerStart
        return (start, end)
    }

    /// `seconds` in whole ticks of `timeBase`.
    static func ticks(_ seconds: Double, _ timeBase: Rational) -> Int64 {
        timeBase.num > 0 ? Int64((seconds * Double(timeBase.den) / Double(timeBase.num)).rounded()) : 0
    }
}
