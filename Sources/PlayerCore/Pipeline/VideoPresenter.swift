import FFmpegKit
import Foundation

/// The presentation thread: hands each picture to the video sink when the master clock reaches
/// its time, drops pictures that are already late, and discards those of older generations.
final class VideoPresenter: Sendable {
    /// Longest single sleep, so pause, seek, step and close are noticed promptly.
    static let maxSleep = 0.01
    /// A frame within this of the clock is due now (sleeping less is not precise anyway).
    static let dueTolerance = 0.0005

    private let frames: VideoFrameQueue
    private let control: PlaybackControl
    private let sink: any VideoSink

    init(frames: VideoFrameQueue, control: PlaybackControl, sink: any VideoSink) {
        self.frames = frames
        self.control = control
        self.sink = sink
    }

    func run() {
        let fast = control.fast
        while !frames.isAborted {
            guard let head = frames.peek(timeout: Self.maxSleep) else { continue }
            let now = control.time.now()
            let s = control.settled(at: now) { ($0.serial, $0.prerolling, $0.videoPrerolled, $0.clock, $0.pendingSteps, $0.stopPosition) }
            let (serial, prerolling, videoPrerolled, clock, steps, stop) = s
            guard head.serial == serial else { frames.pop(expecting: head); continue }
            guard case .payload(let frame) = head.entry else {
                if frames.pop(expecting: head) { control.markEnded(serial: serial, video: true) }
                continue
            }
            if let stop, frame.position >= stop {
                if frames.pop(expecting: head) { control.markEnded(serial: serial, video: true) }
                continue
            }
            // The first picture of a generation is shown at once (it covers the preroll), then held.
            if prerolling {
                if !videoPrerolled {
                    if present(head, frame, at: now, serial: serial) {
                        control.markPrerolled(serial: serial, video: true, position: frame.position)
                    }
                } else {
                    Thread.sleep(forTimeInterval: Self.maxSleep / 2)
                }
                continue
            }
            if clock.isPaused(at: now) {
                if steps > 0 {
                    // The clock moves first, so whoever sees the picture sees the position with it.
                    control.update { st in
                        guard st.serial == serial else { return }
                        st.pendingSteps -= 1
                        st.clock.set(position: frame.position, at: now)
                    }
                    present(head, frame, at: now, serial: serial)
                } else {
                    Thread.sleep(forTimeInterval: Self.maxSleep)
                }
                continue
            }
            // Unpaced: every picture as soon as it is decoded (while playing: not before play()).
            if fast {
                present(head, frame, at: now, serial: serial)
                continue
            }
            let master = clock.position(at: now)
            if frame.position > master + Self.dueTolerance {
                let wait = (frame.position - master) / max(clock.rate(at: now), 0.01)
                Thread.sleep(forTimeInterval: min(wait, Self.maxSleep))
                continue
            }
            // Late: the next picture is already due, so this one would only delay it.
            if let next = frames.peekSecond(), next.serial == serial, case .payload(let nextFrame) = next.entry,
               nextFrame.position <= master {
                guard frames.pop(expecting: head) else { continue }
                control.update { if $0.serial == serial { $0.stats.droppedFrames += 1 } }
                continue
            }
            present(head, frame, at: now, serial: serial)
        }
        sink.finish()
    }

    /// Takes `head` off the queue and shows it, unless a seek flushed it since it was peeked.
    @discardableResult
    private func present(_ head: Queued<VideoFrame>, _ frame: VideoFrame, at now: Double, serial: Int) -> Bool {
        guard frames.pop(expecting: head) else { return false }
        sink.present(frame, hostTime: now)
        let first = control.update { s -> Bool in
            guard s.serial == serial else { return false }
            s.stats.videoFrames += 1
            s.stats.endPosition = max(s.stats.endPosition, frame.position + frame.duration)
            defer { s.presentedAny = true }
            return !s.presentedAny
        }
        if first { control.events.emit(.firstFrame(position: frame.position, hostTime: now)) }
        control.events.emit(.framePresented(position: frame.position, hostTime: now))
        return true
    }
}
