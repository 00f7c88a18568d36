import FFmpegKit
import Synchronization

/// A change of the audio track while playing (mpv's `#`, `aid`), carried out by a seek to where
/// the clock is: the demuxer routes the new stream into the audio queue from that seek's
/// generation on, and the audio decoder thread swaps to the new decoder when it meets that
/// generation. Nothing of the old track is decoded with the new decoder, nor the reverse: both
/// sides switch exactly at the generation boundary, which the seek's flush makes clean.
///
/// The decoder is handed over once: the decoder thread then owns it (and frees the old one).
final class AudioTrackSwitch: Sendable {
    /// The demuxer's part: which stream feeds the audio queue, and its time base.
    struct Route: Sendable {
        var streamIndex: Int
        var timeBase: Double
        /// The first generation read this way.
        var serial: Int
    }

    private struct Pending: @unchecked Sendable {
        /// Oldest first. Each side takes the newest whose generation has come and drops those
        /// before it, so quick presses never pair one track's packets with another's decoder.
        var routes: [Route] = []
        /// The decoder thread's part. A `Decoder` is used by one thread at a time: here until taken.
        var decoders: [(decoder: Decoder, serial: Int)] = []
    }

    private let pending = Mutex(Pending())

    /// Arranges the switch to `decoder`'s stream from generation `serial` on.
    func request(_ decoder: Decoder, serial: Int) {
        pending.withLock {
            $0.routes.append(Route(streamIndex: decoder.streamIndex, timeBase: decoder.timeBase.value, serial: serial))
            $0.decoders.append((decoder, serial))
        }
    }

    /// The demuxer, taking the seek of generation `serial`: the audio route from now on, if it changes.
    func route(forGeneration serial: Int) -> Route? {
        pending.withLock { p in
            guard let last = p.routes.lastIndex(where: { $0.serial <= serial }) else { return nil }
            defer { p.routes.removeFirst(last + 1) }
            return p.routes[last]
        }
    }

    /// The audio decoder thread, meeting generation `serial`: the decoder to use from now on, if it changes.
    func decoder(forGeneration serial: Int) -> Decoder? {
        pending.withLock { p in
            guard let last = p.decoders.lastIndex(where: { $0.serial <= serial }) else { return nil }
            defer { p.decoders.removeFirst(last + 1) }
            return p.decoders[last].decoder
        }
    }
}
