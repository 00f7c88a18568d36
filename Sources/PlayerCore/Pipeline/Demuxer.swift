import CFFmpeg
import FFmpegKit
import Foundation
import Logging

/// The read thread: `av_read_frame` into one packet queue per played stream, throttled by fill
/// (``ReadAhead/Limits``: small queues for a local file, tens of seconds for a network stream),
/// carrying out seeks and flushing the queues into the new generation.
final class Demuxer: Sendable {
    /// How long the thread sleeps when it has nothing to do; a seek or close waits at most this.
    static let idleWait = 0.01
    /// Accurate seeks start decoding this much before the target. Transform audio codecs need the
    /// previous frame to reconstruct a frame (AAC's MDCT overlap, Opus' 80 ms pre-roll): without it
    /// the first samples after a seek differ from a continuous decode. Decoded frames before the
    /// target are discarded, so pictures are unaffected.
    static let accurateSeekPreroll = 0.1

    struct Route: Sendable {
        /// The stream read into `packets` (the audio route's changes with the audio track).
        var streamIndex: Int
        let packets: PacketQueue
        /// Flushed into the new generation together with the packets.
        let frames: @Sendable (Int) -> Void
        var timeBase: Double
        /// Subtracted from timestamps to make media positions (the container's start time).
        let startSeconds: Double
        /// A stream with few packets (subtitles): it never has "enough" queued, so reading is
        /// throttled by the other streams alone (its bytes still count).
        var sparse = false
    }

    private let input: MediaInput
    private let routes: [Route]
    private let control: PlaybackControl
    private let logger: Logger
    private let readAhead: ReadAhead
    /// The audio route (its index in `routes`) and the track changes it takes at a seek.
    private let audioSwitch: (route: Int, changes: AudioTrackSwitch)?

    /// Seconds from the input's start to position 0 (a live party's origin; 0 otherwise): a seek
    /// to a position is a seek to this much more from the input's start.
    private let seekShift: Double

    init(input: MediaInput, routes: [Route], control: PlaybackControl, readAhead: ReadAhead,
         audioSwitch: (route: Int, changes: AudioTrackSwitch)? = nil, streamStart: Double? = nil, logger: Logger) {
        self.input = input
        seekShift = (streamStart ?? input.startSeconds) - input.startSeconds
        self.routes = routes
        self.audioSwitch = audioSwitch
        self.control = control
        self.readAhead = readAhead
        self.logger = logger
    }

    func run() {
        let packet = Packet()
        var serial = 0
        var atEnd = false
        var routes = self.routes
        while !routes.allSatisfy({ $0.packets.isAborted }) {
            if let seek = control.send({ $0.seekTaken() }) {
                serial = seek.serial
                if let (index, changes) = audioSwitch, let change = changes.route(forGeneration: serial) {
                    routes[index].streamIndex = change.streamIndex
                    routes[index].timeBase = change.timeBase
                }
                do {
                    let preroll = seek.accurateTarget == nil ? 0 : Self.accurateSeekPreroll
                    // An input that refuses seeks (a live playlist) is read on: an accurate seek's
                    // target ahead is reached by dropping the frames before it.
                    if !input.refusesSeeks { try input.seek(toSeconds: max(0, seek.position - preroll) + seekShift) }
                } catch {
                    control.warn("\(input.url): seek to \(seek.position) s failed: \(error.reason)")
                }
                for route in routes {
                    // An input that cannot seek reads on: the packets already read are the next ones.
                    if input.refusesSeeks { route.packets.carryOver(serial: serial) } else { route.packets.flush(serial: serial) }
                    route.frames(serial)
                }
                readAhead.flushed()
                atEnd = false
            }
            if atEnd || isFull() {
                Thread.sleep(forTimeInterval: Self.idleWait)
                continue
            }
            do {
                switch try input.read(into: packet) {
                case .ok:
                    guard let index = routes.firstIndex(where: { $0.streamIndex == packet.streamIndex }) else { continue }
                    let route = routes[index]
                    let moved = Packet()
                    moved.take(from: packet)
                    let duration = Double(max(moved.duration, 0)) * route.timeBase
                    let ts = moved.pts != tandem_nopts_value() ? moved.pts : moved.dts
                    if ts != tandem_nopts_value() {
                        readAhead.read(route: index, end: Double(ts) * route.timeBase - route.startSeconds + duration)
                    }
                    route.packets.put(.payload(moved), serial: serial, bytes: moved.size,
                                      duration: Double(moved.duration) * route.timeBase)
                case .again:
                    Thread.sleep(forTimeInterval: Self.idleWait)
                case .endOfStream:
                    endAll(serial: serial)
                    atEnd = true
                }
            } catch {
                if error.code == FFmpegError.exit { return }  // interrupted: the player is closing
                // A damaged file: play what was read, as ffmpeg does.
                control.warn("\(input.url): \(error.reason) while reading; playing what was read")
                logger.warning("read error", metadata: ["file": "\(input.url)", "error": "\(error)"])
                endAll(serial: serial)
                atEnd = true
            }
        }
    }

    private func endAll(serial: Int) {
        for route in routes { route.packets.put(.end, serial: serial) }
        readAhead.ended()
    }

    private func isFull() -> Bool {
        let limits = readAhead.limits
        let allFills = routes.map { $0.packets.fill }
        if allFills.reduce(0, { $0 + $1.bytes }) > limits.maxBytes { return true }
        let fills = zip(routes, allFills).filter { !$0.0.sparse }.map(\.1)
        if readAhead.measuresFromClock {
            // A network stream: read this far past the clock (``ReadAhead/measure(at:)``).
            return readAhead.measure(at: control.position).seconds >= limits.seconds
        }
        let enough = { (fill: PacketQueue.Fill) in fill.count > limits.packets && fill.duration > limits.seconds }
        // Paced playback drains every stream at the same media rate, so reading goes on until all
        // have enough (none starves). Unpaced, audio decodes far faster than video: waiting for it
        // to have enough would pile the video up to the byte cap, so any full stream pauses reading.
        return control.fast ? fills.contains(where: enough) : fills.allSatisfy(enough)
    }
}
