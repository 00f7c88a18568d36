/// Decode timestamps for a segment's video packets, made from their presentation timestamps.
///
/// Matroska stores no decode times, and libavformat's guesses depend on where reading began (after
/// a seek the first ones are missing), so a segment made alone would not get the ones a whole-file
/// remux gets. Instead each packet's decode time is the i-th smallest presentation time of the
/// segment less a reorder delay: increasing, never after the packet's presentation time, and the
/// same whichever segment was made first. The delay is the file's nominal one (frames of B-frame
/// reordering × frame duration) unless the segment needs more. Pure.
public enum DecodeTimestamps {
    /// `pts` (presentation timestamps in decode order) → decode timestamps, and the delay used.
    public static func make(pts: [Int64], nominalDelay: Int64) -> (dts: [Int64], delay: Int64) {
        let sorted = pts.sorted()
        var delay = max(0, nominalDelay)
        for (i, p) in pts.enumerated() { delay = max(delay, sorted[i] - p) }
        var dts: [Int64] = []
        dts.reserveCapacity(pts.count)
        for value in sorted {
            // Equal presentation times (a damaged file) still get increasing decode times.
            let next = value - delay
            dts.append(dts.last.map { max(next, $0 + 1) } ?? next)
        }
        return (dts, delay)
    }

    /// The nominal reorder delay in time-base ticks: `reorderFrames` frames of `frameTicks` each.
    public static func nominalDelay(reorderFrames: Int, frameTicks: Int64) -> Int64 {
        Int64(max(0, reorderFrames)) * max(0, frameTicks)
    }
}
