import DequeModule
import FFmpegKit
import Foundation
import Synchronization

/// The audio stage: decoded frames → tempo (pitch-preserving speed) → resampler (sink format,
/// small corrections) → a short buffer of chunks that the sink pulls from.
///
/// Every chunk remembers the media time of its first sample and how much media each output
/// sample covers, so the clock is re-anchored from what is actually handed to the device,
/// whatever rate, tempo or correction was in force when it was made.
final class AudioRenderer: AudioSource, @unchecked Sendable {
    /// Output buffered ahead of the sink. Short, so corrections are heard soon and a rate change
    /// announced 250 ms ahead (as parties do) finds its frame not yet rendered, to be cut exactly
    /// on the change; long enough to ride out a decoder hiccup.
    static let bufferSeconds = 0.1
    /// Sound buffered before a seek counts as prerolled: a scheduled start then plays from the
    /// buffer, not from a decoder racing the device.
    static let prerollSeconds = 0.06
    /// How long an unpaced pull waits before asking again while nothing may be played.
    static let idlePoll = 0.005

    struct Chunk {
        var serial: Int
        var data: [UInt8]
        var offsetFrames = 0
        var frameCount: Int
        var mediaStart: Double
        var mediaPerFrame: Double
    }

    let format: AudioFormat
    private let frames: AudioFrameQueue
    private let control: PlaybackControl
    private let condition = NSCondition()
    private var chunks = Deque<Chunk>()
    private var bufferedFrames = 0
    /// The producer has queued everything of this serial (its stream ended).
    private var finishedSerial: Int?
    private var aborted = false

    /// The longest chunk rendered (frames): the buffer may hold that much beyond its capacity.
    private let longestChunk = Atomic<Int>(0)

    /// Seconds of sound this stage may have rendered ahead of the sink's pull: its buffer and one
    /// more chunk. A rate change must be known before the sound at its instant is rendered.
    var renderedAhead: Double {
        Self.bufferSeconds + Double(longestChunk.load(ordering: .relaxed)) / Double(format.sampleRate)
    }

    /// The instant of a clock switch seen ahead (a rate change, a resume) whose first sound has not
    /// been heard yet: that sound meets the clock (sink's thread only).
    private var switchToMeet: Double?

    /// Seconds of sound rendered and not yet pulled (for tests that pull by hand).
    var bufferedSeconds: Double { condition.withLock { Double(bufferedFrames) / Double(format.sampleRate) } }

    /// The sink's output delay, read on every pull (a device may report it changing).
    private let latency: @Sendable () -> Double

    init(format: AudioFormat, frames: AudioFrameQueue, control: PlaybackControl, latency: @escaping @Sendable () -> Double) {
        self.format = format
        self.frames = frames
        self.control = control
        self.latency = latency
    }

    func abort() {
        condition.withLock {
            aborted = true
            chunks.removeAll()
            condition.broadcast()
        }
    }

    // MARK: Producer thread

    func runProducer() {
        var stage = ProducerStage(format: format)
        var serial = -1
        var stopReached = false
        // Output made for this generation: enough of it completes the preroll (a fast sink may
        // already have taken it, so the buffer's fill would not tell).
        var producedSinceSeek = 0
        let prerollFrames = Int(Self.prerollSeconds * Double(format.sampleRate))
        // The last conversion failure said (once per generation: it would come again for every frame).
        var failure: String?
        func failed(_ error: FFmpegError) {
            if failure != "\(error)" { control.warn("audio: \(error): this sound is played as silence") }
            failure = "\(error)"
        }
        while let item = frames.get() {
            let (current, stop) = control.read { ($0.serial, $0.stopPosition) }
            guard item.serial == current else { continue }
            if item.serial != serial {
                serial = item.serial
                stage.reset()
                stopReached = false
                producedSinceSeek = 0
                failure = nil
            }
            switch item.entry {
            case .payload(let audio):
                if stopReached { continue }
                let frame = audio.frame
                frame.dropLeadingSamples(audio.skip)
                if let stop, audio.position + audio.duration > stop {
                    frame.keepLeadingSamples(Int(((stop - audio.position) * Double(frame.sampleRate)).rounded()))
                    stopReached = true
                }
                let kept = frame.sampleCount
                for (part, position) in split(frame, at: audio.position) {
                    let speed = control.read { $0.speed(forMedia: position) }
                    let chunk: ProducerStage.Chunk
                    do { chunk = try stage.render(part, position: position, speed: speed) } catch {
                        failed(error)
                        chunk = stage.silence(for: part, position: position, speed: speed)
                    }
                    guard enqueue(serial: serial, data: chunk.data, frames: chunk.frames,
                                  start: chunk.start, mediaPerFrame: chunk.mediaPerFrame) else { return }
                    producedSinceSeek += chunk.frames
                }
                let end = audio.position + Double(kept) / Double(frame.sampleRate)
                control.send { $0.audioProduced(serial: serial, samples: kept, end: end) }
                if producedSinceSeek >= prerollFrames { prerolled(serial: serial) }
                if stopReached { finish(serial: serial) }
            case .end:
                if !stopReached {
                    do {
                        let chunk = try stage.drain()
                        guard enqueue(serial: serial, data: chunk.data, frames: chunk.frames,
                                      start: chunk.start, mediaPerFrame: chunk.mediaPerFrame) else { return }
                    } catch {
                        failed(error)  // what the tempo filter held is lost; the end is still the end
                    }
                    finish(serial: serial)
                }
            }
        }
    }

    /// A frame that straddles a pending rate change is cut there: what comes before plays at the
    /// old tempo, the rest at the new, so the change is heard on its instant.
    private func split(_ frame: Frame, at position: Double) -> [(Frame, Double)] {
        let rate = Double(frame.sampleRate)
        guard let at = control.read({ $0.rateSwitchPosition }), at > position else { return [(frame, position)] }
        let n = Int(((at - position) * rate).rounded())
        guard n > 0, n < frame.sampleCount else { return [(frame, position)] }
        let head = frame.clone()
        head.keepLeadingSamples(n)
        frame.dropLeadingSamples(n)
        return [(head, position), (frame, position + Double(n) / rate)]
    }

    /// Appends a chunk, waiting while the buffer is full. False once aborted.
    private func enqueue(serial: Int, data: [UInt8], frames count: Int, start: Double, mediaPerFrame: Double) -> Bool {
        guard count > 0 else { return !condition.withLock { aborted } }
        if count > longestChunk.load(ordering: .relaxed) { longestChunk.store(count, ordering: .relaxed) }
        let capacity = Int(Self.bufferSeconds * Double(format.sampleRate))
        condition.lock()
        defer { condition.unlock() }
        dropStaleLocked(serial: serial)
        while bufferedFrames >= capacity, !aborted, control.read({ $0.serial }) == serial {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.01))
        }
        if aborted { return false }
        chunks.append(Chunk(serial: serial, data: data, frameCount: count, mediaStart: start, mediaPerFrame: mediaPerFrame))
        bufferedFrames += count
        condition.broadcast()
        return true
    }

    /// Chunks of an older generation are never played: free their room at once.
    private func dropStaleLocked(serial: Int) {
        while let head = chunks.first, head.serial < serial {
            bufferedFrames -= head.frameCount - head.offsetFrames
            chunks.removeFirst()
        }
    }

    private func finish(serial: Int) {
        condition.withLock {
            finishedSerial = serial
            condition.broadcast()
        }
        prerolled(serial: serial)
        // Nothing buffered and nothing coming: the end is now (a seek past the end).
        checkEnd(serial: serial)
    }

    private func checkEnd(serial: Int) {
        let drained = condition.withLock { finishedSerial == serial && !chunks.contains { $0.serial == serial } }
        if drained {
            let now = control.time.now()
            control.perform { $0.streamEnded(.audio, serial: serial, at: now) }
        }
    }

    private func prerolled(serial: Int) {
        let now = control.time.now()
        control.perform { $0.streamPrerolled(.audio, serial: serial, at: now) }
    }

    // MARK: Pull side (the sink's thread)

    func pull(into buffer: UnsafeMutableRawBufferPointer, frames count: Int, heardIn: Double) -> Int {
        let rate = Double(format.sampleRate)
        let now = control.time.now()
        let heardAt = now + latency() + heardIn
        let (serial, clock, prerolling, meetsClock) = control.settled(at: now) { ($0.serial, $0.clock, $0.prerolling, $0.soundMeetsClock) }
        var written = 0
        var anchored = false
        if let next = clock.next, !next.isPaused { switchToMeet = next.anchorHost }
        // The buffer may span a clock switch (pause, play or rate change at an instant): each
        // segment is rendered under the clock in force for it, so the switch lands on its sample.
        while written < count {
            let segmentStart = heardAt + Double(written) / rate
            let segment = clock.segment(at: segmentStart)
            var limit = count
            if let next = clock.next, next.anchorHost > segmentStart {
                limit = min(count, written + max(1, Int(((next.anchorHost - segmentStart) * rate).rounded())))
            }
            if prerolling || segment.isPaused {
                silence(buffer, written..<limit)
                written = limit
                continue
            }
            // Silence until the segment's instant (a scheduled start), and across a gap before the
            // next sample (audio that starts later than the clock waits for it). The first sound of a
            // clock started on an instant meets it exactly: it waits for its sample's due time, or
            // skips ahead to the sound due by then, as the picture does, instead of dragging the clock
            // back to itself. (Only then: on a plain start the first sound heard is the clock.) So does
            // the first sound after a switch on an instant (a rate change): the tempo filter that starts
            // or stops there drops or holds some of the sound, and played through, the difference
            // stayed heard (5–20 ms) until the party's nudges slewed it out.
            var lead = max(0, segment.anchorHost - segmentStart)
            let atSwitch = switchToMeet.map { abs(segment.anchorHost - $0) < 1e-6 } ?? false
            if let next = nextMedia(serial: serial) {
                let due = segment.position(at: segmentStart + lead)
                let gap = (next - due) / segment.rate
                let meeting = (meetsClock || atSwitch) && !anchored
                if gap > Self.gapTolerance || (meeting && gap > 0) {
                    lead += gap
                } else if meeting, gap < 0 {
                    skip(serial: serial, before: due)
                }
            }
            let leadFrames = min(limit - written, Int((lead * rate).rounded()))
            silence(buffer, written..<written + leadFrames)
            written += leadFrames
            let firstFrame = written
            if let firstMedia = take(into: buffer, from: &written, upTo: limit, serial: serial), !anchored {
                // What is heard at that instant is the clock.
                let heardHost = heardAt + Double(firstFrame) / rate
                control.send { $0.audioHeard(serial: serial, position: firstMedia, at: heardHost, now: now) }
                anchored = true
                if atSwitch { switchToMeet = nil }
            }
            if written < limit {
                silence(buffer, written..<limit)
                written = limit
                checkEnd(serial: serial)
            }
        }
        return count
    }

    private func silence(_ buffer: UnsafeMutableRawBufferPointer, _ frames: Range<Int>) {
        guard !frames.isEmpty else { return }
        let b = format.bytesPerFrame
        UnsafeMutableRawBufferPointer(rebasing: buffer[frames.lowerBound * b..<frames.upperBound * b])
            .initializeMemory(as: UInt8.self, repeating: 0)
    }

    /// A gap between the clock and the next sample smaller than this is played through
    /// (timestamps of compressed audio jitter by a few samples); a larger one is waited out.
    static let gapTolerance = 0.02

    /// Drops the buffered samples of `serial` that come before media position `target`.
    private func skip(serial: Int, before target: Double) {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        dropStaleLocked(serial: serial)
        while var chunk = chunks.first, chunk.serial == serial {
            let start = chunk.mediaStart + Double(chunk.offsetFrames) * chunk.mediaPerFrame
            guard start < target, chunk.mediaPerFrame > 0 else { return }
            let n = min(chunk.frameCount - chunk.offsetFrames, Int(((target - start) / chunk.mediaPerFrame).rounded(.up)))
            chunk.offsetFrames += n
            bufferedFrames -= n
            if chunk.offsetFrames == chunk.frameCount { chunks.removeFirst() } else { chunks[0] = chunk }
        }
    }

    private func nextMedia(serial: Int) -> Double? {
        condition.withLock {
            chunks.first { $0.serial == serial }.map { $0.mediaStart + Double($0.offsetFrames) * $0.mediaPerFrame }
        }
    }

    func pullAvailable(into buffer: UnsafeMutableRawBufferPointer, frames count: Int, timeout: Double) -> Int {
        let (serial, playing) = control.read { ($0.serial, $0.wantsPlaying && !$0.prerolling) }
        // Unpaced, but not before play() (nor while paused or prerolling): what is set up before
        // playing (a correction, a seek) applies to every sample written.
        guard playing else {
            Thread.sleep(forTimeInterval: min(timeout, Self.idlePoll))
            return 0
        }
        condition.withLock {
            if !chunks.contains(where: { $0.serial == serial }), !aborted {
                _ = condition.wait(until: Date(timeIntervalSinceNow: timeout))
            }
        }
        var written = 0
        _ = take(into: buffer, from: &written, upTo: count, serial: serial)
        if written == 0 { checkEnd(serial: serial) }
        return written
    }

    /// Copies buffered samples of `serial` into `buffer` from frame `written`; returns the media
    /// time of the first one copied. Chunks of older serials are dropped unheard.
    private func take(into buffer: UnsafeMutableRawBufferPointer, from written: inout Int, upTo count: Int,
                      serial: Int) -> Double? {
        let bytesPerFrame = format.bytesPerFrame
        var firstMedia: Double?
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        dropStaleLocked(serial: serial)
        // A chunk of a newer generation waits for the clock of that generation.
        while written < count, var chunk = chunks.first, chunk.serial == serial {
            let n = min(count - written, chunk.frameCount - chunk.offsetFrames)
            if firstMedia == nil { firstMedia = chunk.mediaStart + Double(chunk.offsetFrames) * chunk.mediaPerFrame }
            chunk.data.withUnsafeBytes { src in
                let from = chunk.offsetFrames * bytesPerFrame
                UnsafeMutableRawBufferPointer(rebasing: buffer[written * bytesPerFrame..<(written + n) * bytesPerFrame])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: src[from..<from + n * bytesPerFrame]))
            }
            written += n
            bufferedFrames -= n
            chunk.offsetFrames += n
            if chunk.offsetFrames == chunk.frameCount { chunks.removeFirst() } else { chunks[0] = chunk }
        }
        return firstMedia
    }
}
