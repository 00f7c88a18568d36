import Synchronization

/// How much the demuxer reads ahead of playback, and how far it has got: the end (media seconds)
/// of the latest packet read for each played stream since the last seek, and whether the input
/// is read to its end. A streaming player rides out a slow link on this read-ahead; a player whose
/// clock has passed everything read is waiting on its input (it ran dry).
final class ReadAhead: Sendable {
    /// When the demuxer stops reading.
    struct Limits: Sendable, Equatable {
        /// Bytes queued over all streams (bounds memory for high-bitrate streams).
        var maxBytes: Int
        /// Media seconds read ahead of the clock on every stream.
        var seconds: Double
        /// Packets on every stream (a local file: with `seconds`, ffplay's MIN_FRAMES rule).
        var packets: Int

        /// A local file: today's small queues (ffplay's MAX_QUEUE_SIZE and MIN_FRAMES, and a second
        /// of media so a slow read does not starve a decoder). The disk is always there.
        static let local = Limits(maxBytes: 15 * 1024 * 1024, seconds: 1.0, packets: 25)
        /// A network input: up to 30 s of media or 64 MiB, whichever comes first, so a link with
        /// jitter (or a few seconds' outage) never stalls a healthy member; still bounded per player.
        static let network = Limits(maxBytes: 64 * 1024 * 1024, seconds: 30, packets: 0)
        /// A live stream: its server keeps only a window of it (a live HLS playlist's last segments),
        /// so what a paused party will play must be read before it goes: read on while paused up to
        /// the same 64 MiB (about 4 minutes of a 2 Mb/s stream, 1 minute at 8 Mb/s) rather than stop
        /// at 30 s, after which a pause longer than the window loses the moments in between.
        static let live = Limits(maxBytes: network.maxBytes, seconds: 600, packets: 0)
    }

    let limits: Limits
    /// Measured from the clock (network) rather than from the queued packets' durations (local):
    /// a network stream's packets may carry no duration (MPEG-TS), their timestamps always.
    let measuresFromClock: Bool

    private struct State {
        var ends: [Double?]
        var inputEnded = false
    }

    private let state: Mutex<State>

    init(streams: Int, limits: Limits, measuresFromClock: Bool) {
        self.limits = limits
        self.measuresFromClock = measuresFromClock
        state = Mutex(State(ends: Array(repeating: nil, count: streams)))
    }

    /// A seek: nothing is read for the new generation yet.
    func flushed() {
        state.withLock { s in
            s.ends = s.ends.map { _ in nil }
            s.inputEnded = false
        }
    }

    /// A packet of stream `route` (its index among the played streams) ending at media `end` was queued.
    func read(route: Int, end: Double) {
        state.withLock { s in
            guard s.ends.indices.contains(route) else { return }
            s.ends[route] = max(s.ends[route] ?? end, end)
        }
    }

    func ended() { state.withLock { $0.inputEnded = true } }

    /// Seconds read beyond `position` on the stream that has most (0 when nothing is read yet),
    /// and whether the input is read to its end. The most, not the least: the streams of a file
    /// are interleaved, so they run dry and refill together, while a sparse stream (a cover
    /// picture, a still) must not make a healthy input look dry.
    func measure(at position: Double) -> (seconds: Double, inputEnded: Bool) {
        state.withLock { s in
            let most = s.ends.compactMap { $0.map { $0 - position } }.max() ?? 0
            return (max(0, most), s.inputEnded)
        }
    }
}

/// What a player's input holds for it: a streaming player's read-ahead, and whether it ran dry.
public struct BufferStatus: Sendable, Equatable {
    /// Media seconds read beyond the clock's position (on the stream that has most).
    public var readAhead: Double
    /// The input is read to its end: nothing more will come, so nothing is worth waiting for.
    public var inputEnded: Bool
    /// A network input, read far ahead (``ReadAhead/Limits/network``); a local file reads about a
    /// second ahead, so its `readAhead` says nothing about recovering.
    public var streaming: Bool
    /// A network input whose clock runs (playing, prerolled, not ended) but has passed everything
    /// read: the player waits on its input while it should be presenting. Never for a local file.
    public var starved: Bool

    public init(readAhead: Double, inputEnded: Bool, starved: Bool, streaming: Bool) {
        self.readAhead = readAhead
        self.inputEnded = inputEnded
        self.starved = starved
        self.streaming = streaming
    }
}
