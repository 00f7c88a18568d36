import Foundation
import PlayerCore

/// What `tandem play` prints: JSON event lines, or on a terminal a live status line in mpv's manner
/// (`AV: 00:00:03 / 00:00:10 A-V: +0.001 Dropped: 0`).
package final class EventOutput: Sendable {
    /// How often the status line is redrawn.
    package static let statusInterval = 0.1

    package let json: Bool
    private let status: Bool
    /// Host time the command started, for the open-to-first-frame figure.
    private let started: Double
    private let lines: JSONLineWriter

    /// - Parameters:
    ///   - json: Print ``PlayEvent`` lines to `lines`.
    ///   - started: Host time the command started.
    ///   - statusLine: Redraw mpv's status line on standard error (default: when it is a terminal).
    package init(json: Bool, started: Double, statusLine: Bool = FileHandleOutput.standardError.isTerminal,
         lines: JSONLineWriter = .standardOutput) {
        self.json = json
        self.started = started
        self.lines = lines
        status = statusLine
    }

    /// Per-picture events are needed only to show the A-V difference on the status line.
    package var wantsFrames: Bool { status }

    /// `name`: what the viewer gave (a page link for a page's video, whose media URL the player opened);
    /// `title` and `pageDuration`: what the page says, if it is one.
    package func opened(_ player: Player, name: String? = nil, title: String? = nil, pageDuration: Double? = nil) {
        let file = name ?? player.url
        emit(.open(file: file, durationSeconds: player.duration ?? pageDuration, video: player.hasVideo, audio: player.hasAudio,
                   title: title, url: file == player.url ? nil : player.url))
    }

    /// Prints events until the stream finishes; redraws the status line meanwhile.
    package func follow(_ events: AsyncStream<PlayerEvent>, player: Player) async {
        var lastFrame: Double?
        var lastDraw = 0.0
        let clock = MonotonicTimeSource()
        for await event in events {
            switch event {
            case .stateChanged(let state): emit(.state(state))
            case .seekCompleted(let position): emit(.seeked(position: position))
            case .warning(let message):
                if json { emit(.warning(message: message)) } else { clearStatus(); printError("warning: \(message)") }
            case .ended: emit(.ended)
            case .firstFrame(let position, let host):
                emit(.firstFrame(position: position, sinceStartSeconds: rounded(host - started, 6)))
                lastFrame = position
            case .framePresented(let position, _):
                lastFrame = position
            }
            let now = clock.now()
            if status, now - lastDraw >= Self.statusInterval {
                lastDraw = now
                drawStatus(player: player, lastFrame: lastFrame)
            }
        }
        if status { drawStatus(player: player, lastFrame: lastFrame); FileHandleOutput.standardError.write("\n") }
    }

    package func finished(stats: PlaybackStats, mediaSeconds: Double, wallSeconds: Double) {
        emit(.end(.init(videoFrames: stats.videoFrames, audioSamples: stats.audioSamples, droppedFrames: stats.droppedFrames,
                        warnings: stats.warnings, durationSeconds: rounded(mediaSeconds), wallSeconds: rounded(wallSeconds))))
    }

    /// Pictures the window drew or skipped (printed before the end summary, which stays last).
    package func window(shownFrames: Int, skippedFrames: Int, delayedFrames: Int = 0, refreshRate: Double? = nil) {
        emit(.window(shownFrames: shownFrames, skippedFrames: skippedFrames, delayedFrames: delayedFrames, refreshRate: refreshRate))
    }

    private func drawStatus(player: Player, lastFrame: Double?) {
        let position = player.position
        let line = Self.statusLine(paused: player.state == .paused, video: player.hasVideo, audio: player.hasAudio,
                                   position: position, duration: player.duration,
                                   avDifference: lastFrame.map { position - $0 }, rate: player.rate,
                                   dropped: player.stats.droppedFrames)
        FileHandleOutput.standardError.write("\r\u{1B}[K" + line)
    }

    /// mpv's status line: `(Paused) AV: 00:00:03 / 00:00:10 A-V: +0.001 Dropped: 0`
    /// (the A-V difference only with both audio and video; the speed only when it is not 1).
    package static func statusLine(paused: Bool, video: Bool, audio: Bool, position: Double, duration: Double?,
                           avDifference: Double?, rate: Double, dropped: Int) -> String {
        let total = duration.map(timestamp) ?? "--:--:--"
        var line = paused ? "(Paused) " : ""
        line += "\(audio && video ? "AV" : video ? "V" : "A"): \(timestamp(position)) / \(total)"
        if audio, video, let avDifference { line += String(format: " A-V: %+.3f", avDifference) }
        if rate != 1 { line += String(format: " Speed: %.2fx", rate) }
        return line + " Dropped: \(dropped)"
    }

    private func clearStatus() { if status { FileHandleOutput.standardError.write("\r\u{1B}[K") } }

    package static func timestamp(_ seconds: Double) -> String {
        let s = max(0, Int(seconds))
        return String(format: "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
    }

    private func rounded(_ v: Double, _ digits: Int = 3) -> Double {
        let scale = pow(10, Double(digits))
        return (v * scale).rounded() / scale
    }

    private func emit(_ event: PlayEvent) {
        if json { lines.emit(event) }
    }
}
