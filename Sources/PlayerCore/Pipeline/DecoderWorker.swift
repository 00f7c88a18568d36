import CFFmpeg
import FFmpegKit
import Foundation
import Synchronization

/// A decoder thread: packets of one stream in, frames out, generation by generation.
///
/// When a packet of a new serial arrives (a seek happened), the codec is flushed and frames
/// before the seek's accurate target are decoded but not emitted: the first frame out is the
/// one ffmpeg's accurate seek yields (the first with pts ≥ target).
final class DecoderWorker: Sendable {
    /// Tolerance when comparing a frame's time with a seek target: timestamps are exact
    /// fractions, the target a Double; half a microsecond is below any time base in use.
    static let targetTolerance = 5e-7
    /// Sends of one packet answered EAGAIN before it is dropped as undecodable.
    static let maxSendAttempts = 64

    /// The decoder until ``run()`` takes it: from then on the decoder thread is its one owner, and an
    /// audio track change frees the old decoder as it swaps (nothing else holds it).
    private let handOver: Mutex<Decoder?>
    private let packets: PacketQueue
    private let control: PlaybackControl
    private let startSeconds: Double
    private let sink: Output
    /// Audio track changes: a new decoder from a generation on (see ``AudioTrackSwitch``).
    private let trackSwitch: AudioTrackSwitch?

    enum Output: Sendable {
        case video(VideoFrameQueue, fallbackDuration: Double)
        case audio(AudioFrameQueue)
    }

    init(decoder: Decoder, packets: PacketQueue, output: Output, control: PlaybackControl, startSeconds: Double,
         trackSwitch: AudioTrackSwitch? = nil) {
        handOver = Mutex(decoder)
        self.trackSwitch = trackSwitch
        self.packets = packets
        self.sink = output
        self.control = control
        self.startSeconds = startSeconds
    }

    func run() {
        let frame = Frame()
        var serial = -1
        var target: Double?
        var nextPosition: Double?
        var reportedError = false
        guard var decoder = handOver.withLock({ $0.take() }) else { return }
        while let item = packets.get() {
            if item.serial != serial {
                serial = item.serial
                if let replacement = trackSwitch?.decoder(forGeneration: serial) {
                    decoder = replacement
                    reportedError = false
                } else if !packets.continues(serial) {
                    decoder.flush()
                }
                target = control.read { $0.serial == serial ? $0.accurateTarget : nil }
                nextPosition = nil
            }
            do {
                switch item.entry {
                case .payload(let packet):
                    // EAGAIN on send means "take frames first"; a decoder that keeps saying so while
                    // giving none (damaged data) loses this packet rather than spin.
                    var attempts = 0
                    while try decoder.send(packet) == .again, attempts < Self.maxSendAttempts {
                        attempts += 1
                        guard receiveAll(frame, decoder, serial: serial, target: &target, next: &nextPosition) else { return }
                    }
                    guard receiveAll(frame, decoder, serial: serial, target: &target, next: &nextPosition) else { return }
                case .end:
                    _ = try decoder.send(nil)
                    guard receiveAll(frame, decoder, serial: serial, target: &target, next: &nextPosition) else { return }
                    guard putEnd(serial: serial) else { return }
                }
            } catch {
                // A damaged packet: ffmpeg warns and goes on with the next one; so do we.
                if !reportedError {
                    control.warn("\(decoder.codecName) decoder: \(error.reason); skipping damaged data")
                    reportedError = true
                }
            }
        }
    }

    /// Drains the decoder's ready frames into the frame queue. False once the queue is aborted.
    private func receiveAll(_ frame: Frame, _ decoder: Decoder, serial: Int, target: inout Double?, next: inout Double?) -> Bool {
        while true {
            let status: IOStatus
            do {
                status = try decoder.receive(into: frame)
            } catch {
                // The frame is lost; asking again could fail the same way for ever.
                control.warn("\(decoder.codecName) decoder: \(error.reason)")
                return true
            }
            guard status == .ok else { return true }
            guard emit(frame, decoder, serial: serial, target: &target, next: &next) else { return false }
        }
    }

    private func emit(_ frame: Frame, _ decoder: Decoder, serial: Int, target: inout Double?, next: inout Double?) -> Bool {
        let tb = decoder.timeBase
        let ts = frame.bestEffortTimestamp
        switch sink {
        case .video(let queue, let fallbackDuration):
            let duration = frame.durationInTimeBase > 0 ? Double(frame.durationInTimeBase) * tb.value : fallbackDuration
            let position = ts != tandem_nopts_value() ? Double(ts) * tb.value - startSeconds : (next ?? 0)
            next = position + duration
            if let t = target {
                if position < t - Self.targetTolerance { frame.unref(); return true }
                target = nil
            }
            let out = VideoFrame(frame: frame.moveOut(), position: position, duration: duration, timestamp: ts, timeBase: tb)
            return queue.put(.payload(out), serial: serial, duration: duration)
        case .audio(let queue):
            let rate = Double(frame.sampleRate)
            let duration = Double(frame.sampleCount) / rate
            let position = ts != tandem_nopts_value() ? Double(ts) * tb.value - startSeconds : (next ?? 0)
            next = position + duration
            var skip = 0
            if let t = target {
                if position + duration <= t + Self.targetTolerance { frame.unref(); return true }
                skip = max(0, Int(((t - position) * rate).rounded()))
                target = nil
            }
            let out = AudioFrame(frame: frame.moveOut(), position: position + Double(skip) / rate, skip: skip)
            return queue.put(.payload(out), serial: serial, duration: out.duration)
        }
    }

    private func putEnd(serial: Int) -> Bool {
        switch sink {
        case .video(let queue, _): return queue.put(.end, serial: serial)
        case .audio(let queue): return queue.put(.end, serial: serial)
        }
    }
}
