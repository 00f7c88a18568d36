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
    /// Sample position of the first sample held.
    private(set) var start: Int64?
    /// One array per channel, all the same length.
    private var planes: [[Float]]

    init(channels: Int, sampleRate: Int) {
        self.channels = channels
        self.sampleRate = sampleRate
        planes = Array(repeating: [], count: channels)
    }

    /// One past the last sample held.
    var end: Int64? { start.map { $0 + Int64(planes[0].count) } }

    /// Adds `samples` (one array per channel) that belong at sample `position` (nil: right after
    /// what is held).
    mutating func append(_ samples: [[Float]], at position: Int64?) {
        let count = samples.first?.count ?? 0
        guard count > 0, samples.count == channels else { return }
        var position = position ?? end ?? 0
        if let end {
            let tolerance = Int64(Self.driftToleranceSeconds * Double(sampleRate))
            if abs(position - end) <= tolerance { position = end }
            if position > end {
                let silence = [Float](repeating: 0, count: Int(position - end))
                for c in 0..<channels { planes[c].append(contentsOf: silence) }
            }
        } else {
            start = position
        }
        // An overlap with what is held: its first samples are dropped.
        let skip = Int(max(0, (end ?? position) - position))
        guard skip < count else { return }
        for c in 0..<channels { planes[c].append(contentsOf: samples[c][skip...]) }
    }

    /// `count` samples per channel from sample `from`, one array per channel, silence where nothing is held.
    func samples(from: Int64, count: Int) -> [[Float]] {
        var out = Array(repeating: [Float](repeating: 0, count: count), count: channels)
        guard let start else { return out }
        let held = Int64(planes[0].count)
        let first = max(from, start), last = min(from + Int64(count), start + held)
        guard first < last else { return out }
        let length = Int(last - first), source = Int(first - start), target = Int(first - from)
        for c in 0..<channels {
            planes[c].withUnsafeBufferPointer { plane in
                out[c].withUnsafeMutableBufferPointer { into in
                    (into.baseAddress! + target).update(from: plane.baseAddress! + source, count: length)
                }
            }
        }
        return out
    }
}
