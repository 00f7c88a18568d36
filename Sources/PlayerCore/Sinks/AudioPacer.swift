/// The sound device a pacing thread stands in for when there is no sound card: it plays
/// `sampleRate` frames a second and keeps `ahead` seconds queued, as a real device keeps its
/// buffer, so frame `k` is heard at `origin + k / sampleRate`.
///
/// The thread wakes late when the machine is busy. Up to `ahead` of lateness is absorbed by the
/// queue, as a device's buffer absorbs a late callback, and what is pulled is still heard exactly
/// when the audio clock was told. Before, each pull was taken as heard at the wake-up: every late
/// wake set the clock back by its lateness, and a party member's measured error jumped by
/// milliseconds that its controller then chased. A wake later than the queue lasts is an underrun,
/// as on a device: the queue ran dry and playback goes on from the wake-up.
struct AudioPacer: Sendable, Equatable {
    /// Sound kept queued: more than a busy 2-core machine delays a thread (under eight busy loops
    /// wakes came up to 20 ms late), less than a sound card's usual 50 ms buffer.
    static let ahead = 0.04

    let sampleRate: Double
    /// Host time at which frame 0 is heard (moved on by each underrun).
    private(set) var origin: Double
    /// Frames handed to the device so far.
    private(set) var delivered = 0
    /// Times the queue ran dry.
    private(set) var underruns = 0

    init(sampleRate: Int, start: Double) {
        self.sampleRate = Double(sampleRate)
        origin = start
    }

    /// Host time at which the next frame handed over will be heard.
    var playHead: Double { origin + Double(delivered) / sampleRate }

    /// What to pull at `now`: the frames that top the queue up to `ahead` (at most `capacity`), and
    /// in how many seconds the first of them will be heard.
    mutating func due(at now: Double, capacity: Int) -> (frames: Int, heardIn: Double) {
        if playHead < now {
            underruns += delivered > 0 ? 1 : 0
            origin += now - playHead
        }
        let frames = min(max(Int(((now + Self.ahead) - origin) * sampleRate) - delivered, 0), capacity)
        return (frames, playHead - now)
    }

    /// `frames` more frames were handed over.
    mutating func deliver(_ frames: Int) { delivered += frames }
}
