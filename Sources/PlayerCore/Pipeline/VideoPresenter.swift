import FFmpegKit
import Foundation

/// The presentation thread: hands each picture to the video sink when the master clock reaches
/// its time, drops pictures that are already late, and discards those of older generations.
final class VideoPresenter: Sendable {
    /// Longest single sleep, so pause, seek, step and close are noticed promptly.
    static let maxSleep = 0.01
    /// A frame within this of the clock is due now (sleeping less is not precise anyway).
    static let dueTolerance = 0.0005
    /// Floor of the clock rate when turning a media wait into a host wait (a clock just restarted
    /// or switching may report 0): the wait is capped by ``maxSleep`` anyway.
    static let minimumWaitRate = 0.01
    /// The most a sink's reported drawing delay moves pictures ahead: a window takes a few
    /// milliseconds; more is a stall the next pictures should not be pulled forward for.
    static let maxPresentationLead = 0.05
    /// With a display's refreshes known, a picture is handed over this share of a refresh earlier than
    /// its drawing needs (4 ms at 60 Hz): a swap asked for just before a refresh can miss it, and one
    /// asked for early waits for it anyway.
    static let refreshMargin = 0.25

    private let frames: VideoFrameQueue
    private let control: PlaybackControl
    private let sink: any VideoSink
    /// Draws the chosen subtitles onto each picture as it is shown.
    private let subtitles: SubtitleStage?

    init(frames: VideoFrameQueue, control: PlaybackControl, sink: any VideoSink, subtitles: SubtitleStage? = nil) {
        self.frames = frames
        self.control = control
        self.sink = sink
        self.subtitles = subtitles
    }

    func run() {
        let fast = control.fast
        while !frames.isAborted {
            guard let head = frames.peek(timeout: Self.maxSleep) else { continue }
            let now = control.time.now()
            let (serial, awaitsFirst, prerolling, clock, stop) = control.settled(at: now) {
                ($0.serial, $0.awaitsFirstPicture, $0.prerolling, $0.clock, $0.stopPosition)
            }
            guard head.serial == serial else { frames.pop(expecting: head); continue }
            guard case .payload(let frame) = head.entry else {
                if frames.pop(expecting: head) { control.perform { $0.streamEnded(.video, serial: serial, at: now) } }
                continue
            }
            if let stop, frame.position >= stop {
                if frames.pop(expecting: head) { control.perform { $0.streamEnded(.video, serial: serial, at: now) } }
                continue
            }
            // The first picture of a generation is shown at once (it covers the preroll), then held.
            if awaitsFirst {
                if present(head, frame, at: now, serial: serial) {
                    control.perform { $0.streamPrerolled(.video, serial: serial, position: frame.position, at: now) }
                }
                continue
            }
            if prerolling {
                Thread.sleep(forTimeInterval: Self.maxSleep / 2)
                continue
            }
            if clock.isPaused(at: now) {
                if control.send({ $0.stepTaken(serial: serial, position: frame.position, at: now) }) {
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
            // The clock where this picture will be seen: the sink's own delay ahead.
            let lead = min(max(sink.presentationDelay, 0), Self.maxPresentationLead)
            if let grid = sink.refreshGrid, grid.period > 0 {
                presentOnRefresh(head, frame, grid: grid, drawing: lead, clock: clock, at: now, serial: serial)
                continue
            }
            let master = clock.position(at: now + lead)
            if frame.position > master + Self.dueTolerance {
                let wait = (frame.position - master) / max(clock.rate(at: now), Self.minimumWaitRate)
                Thread.sleep(forTimeInterval: min(wait, Self.maxSleep))
                continue
            }
            // Late: the next picture is already due, so this one would only delay it.
            if let next = frames.peekSecond(), next.serial == serial, case .payload(let nextFrame) = next.entry,
               nextFrame.position <= master {
                if frames.pop(expecting: head) { control.send { $0.pictureDropped(serial: serial) } }
                continue
            }
            present(head, frame, at: now, serial: serial, seenAt: now + lead)
        }
        sink.finish()
    }

    /// With a display's refreshes known: the picture is aimed at the refresh nearest its instant and
    /// handed over `drawing` (the sink's) and ``refreshMargin`` before that refresh; of two pictures
    /// aimed at one refresh only the later is shown.
    private func presentOnRefresh(_ head: Queued<VideoFrame>, _ frame: VideoFrame, grid: RefreshGrid, drawing: Double,
                                  clock: MediaClock, at now: Double, serial: Int) {
        let lead = drawing + Self.refreshMargin * grid.period
        let rate = max(clock.rate(at: now), Self.minimumWaitRate)
        let position = clock.position(at: now)
        // The refresh a picture at `media` seconds is aimed at.
        let aim = { (media: Double) in grid.nearest(to: now + (media - position) / rate) }
        let target = aim(frame.position)
        if target - lead > now + Self.dueTolerance {
            Thread.sleep(forTimeInterval: min(target - lead - now, Self.maxSleep))
            return
        }
        if let next = frames.peekSecond(), next.serial == serial, case .payload(let nextFrame) = next.entry,
           aim(nextFrame.position) - lead <= now + Self.dueTolerance {
            if frames.pop(expecting: head) { control.send { $0.pictureDropped(serial: serial) } }
            return
        }
        present(head, frame, at: now, serial: serial, seenAt: target)
    }

    /// Takes `head` off the queue and shows it, unless a seek flushed it since it was peeked.
    @discardableResult
    private func present(_ head: Queued<VideoFrame>, _ frame: VideoFrame, at now: Double, serial: Int, seenAt: Double? = nil) -> Bool {
        guard frames.pop(expecting: head) else { return false }
        sink.present(subtitles?.overlay(frame, serial: serial) ?? frame, hostTime: now)
        control.perform { $0.picturePresented(serial: serial, position: frame.position, duration: frame.duration, at: seenAt ?? now) }
        return true
    }
}
