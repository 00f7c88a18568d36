import FFmpegKit
import Synchronization

/// The subtitles of a playing file: every subtitle stream's packets decoded into its own
/// ``SubtitleTimeline`` (so switching tracks shows the new one at once), external files' cues, the
/// chosen track, its delay and visibility; and, for each picture presented, the chosen track's cues
/// at the picture's time drawn onto it by the ``SubtitleRenderer``.
///
/// Packets are decoded on the presentation thread just before a picture is shown: the demuxer read
/// every subtitle packet up to that picture before its video packet, so the picture never shows
/// without a subtitle that was due (a decoder thread of its own could lag behind). Text subtitles
/// decode in microseconds. A new serial (a seek) clears the embedded timelines, as the packets
/// after it come again.
final class SubtitleStage: Sendable {
    /// One track's cues and, for an embedded stream, where its packets come from.
    struct Source {
        var track: MediaTrack
        /// Nil for external files (decoded whole when opened).
        var packets: PacketQueue?
        var decoder: SubtitleDecoder?
        var header: String?
        var timeline: SubtitleTimeline
    }

    private struct State {
        var sources: [Source]
        var selected: Int?
        var visible: Bool
        var delay: Double
        var serial = 0
        var reportedError = false
    }

    private let state: Mutex<State>
    private let renderer: any SubtitleRenderer
    private let startSeconds: Double
    private let warn: @Sendable (String) -> Void

    init(sources: [Source], selected: Int?, options: SubtitleOptions, startSeconds: Double, warn: @escaping @Sendable (String) -> Void) {
        state = Mutex(State(sources: sources, selected: selected, visible: options.visible, delay: options.delay))
        renderer = options.renderer
        self.startSeconds = startSeconds
        self.warn = warn
    }

    var tracks: [MediaTrack] { state.withLock { $0.sources.map(\.track) } }
    var selected: Int? { state.withLock { $0.selected } }
    var visible: Bool { state.withLock { $0.visible } }
    var delay: Double { state.withLock { $0.delay } }

    func select(_ id: Int?) { state.withLock { s in s.selected = id.flatMap { id in s.sources.contains { $0.track.id == id } ? id : nil } } }
    func setVisible(_ visible: Bool) { state.withLock { $0.visible = visible } }
    func setDelay(_ delay: Double) { state.withLock { $0.delay = delay } }

    /// The picture to show for `frame` of generation `serial`: with the chosen track's cues drawn
    /// on it, or `frame` itself when none shows.
    func overlay(_ frame: VideoFrame, serial: Int) -> VideoFrame {
        let job: (cues: [SubtitleCue], track: SubtitleRenderTrack, time: Double)? = state.withLock { s in
            if serial > s.serial { reset(&s, serial: serial) }
            decodeQueued(&s)
            let time = frame.position - s.delay
            for i in s.sources.indices where s.sources[i].packets != nil { s.sources[i].timeline.prune(before: time) }
            guard s.visible, let id = s.selected, let source = s.sources.first(where: { $0.track.id == id }) else { return nil }
            let cues = source.timeline.active(at: time)
            return cues.isEmpty ? nil : (cues, SubtitleRenderTrack(id: id, header: source.header), time)
        }
        guard let job, let drawn = renderer.render(job.cues, track: job.track, at: job.time, onto: frame.frame) else { return frame }
        return VideoFrame(frame: drawn, position: frame.position, duration: frame.duration, timestamp: frame.timestamp, timeBase: frame.timeBase)
    }

    private func reset(_ s: inout State, serial: Int) {
        s.serial = serial
        for i in s.sources.indices where s.sources[i].packets != nil {
            s.sources[i].decoder?.flush()
            s.sources[i].timeline.removeAll()
        }
    }

    /// Decodes every queued packet of the current generation into its track's timeline.
    private func decodeQueued(_ s: inout State) {
        for i in s.sources.indices {
            guard let packets = s.sources[i].packets, let decoder = s.sources[i].decoder else { continue }
            while let item = packets.get(timeout: 0) {
                if item.serial < s.serial { continue }
                if item.serial > s.serial { reset(&s, serial: item.serial) }
                guard case .payload(let packet) = item.entry else { continue }
                do {
                    guard var event = try decoder.decode(packet) else { continue }
                    event.start -= startSeconds
                    event.end = event.end.map { $0 - startSeconds }
                    s.sources[i].timeline.add(event)
                } catch {
                    if !s.reportedError { warn("\(decoder.codecName) subtitles: \(error.reason); skipping damaged data") }
                    s.reportedError = true
                }
            }
        }
    }
}
