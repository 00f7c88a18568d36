/// Decoded sound laid on the item's sample timeline: planar float samples from ``start`` on, with
/// silence wherever nothing was decoded (before the sound begins, after it ends, in a gap). Frames
/// of the ``AudioGrid`` are cut from it by sample position. Pure.
struct SampleWindow {
    /// How far a decoded frame may land from where the previous one ended before it is placed at
    /// its own timestamp instead (a gap filled with silence, or an overlap dropped): 40 ms is
    /// above the jitter of any container's audio timestamps, and below what is heard as a jump.
    static let driftToleranceSeconds = 0.04

    let channels: Int
    let sampleRate: Int
    /// Sample position of `planes[c][0]`.
    private(set) var start: Int64?
    private(set) var planes: [[Float]]

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
        planes = Array(repeating: [], count: channels)
    }

    /// One past the last sample held.
    var end: Int64? { start.map { $0 + Int64(planes[0].count) } }

    /// Adds `interleaved` samples (frames of `channels` floats) that belong at sample `position`
    /// (nil: right after what is held).
    mutating func append(interleaved: [Float], at position: Int64?) {
        let count = interleaved.count / channels
        guard count > 0 else { return }
        var position = position ?? end ?? 0
        if let end {
            let tolerance = Int64(Self.driftToleranceSeconds * Double(sampleRate))
            if abs(position - end) <= tolerance { position = end }
            if position > end {
                for c in 0..<channels { planes[c].append(contentsOf: repeatElement(0, count: Int(position - end))) }
            }
        } else {
            start = position
        }
        // An overlap with what is held: its first samples are dropped.
        let skip = Int(max(0, (end ?? position) - position))
        guard skip < count else { return }
        for c in 0..<channels {
            planes[c].reserveCapacity(planes[c].count + count - skip)
            for i in skip..<count { planes[c].append(interleaved[i * channels + c]) }
        }
    }

    /// `count` samples per channel from sample `from`, silence where nothing is held.
    func samples(from: Int64, count: Int) -> [[Float]] {
        (0..<channels).map { c in
            var out = [Float](repeating: 0, count: count)
            guard let start else { return out }
            let plane = planes[c]
            let first = max(from, start), last = min(from + Int64(count), start + Int64(plane.count))
            if first < last {
                for p in first..<last { out[Int(p - from)] = plane[Int(p - start)] }
            }
            return out
        }
    }
}
