import Foundation
import PlayerCore

/// What `tandem play` prints: JSON event lines, or on a terminal a live status line in mpv's manner
/// (`AV: 00:00:03 / 00:00:10 A-V: +0.001 Dropped: 0`).
final class EventOutput: Sendable {
    /// How often the status line is redrawn.
    static let statusInterval = 0.1

    let json: Bool
    private let status: Bool
    /// Host time the command started, for the open-to-first-frame figure.
    private let started: Double

    init(json: Bool, started: Double) {
        self.json = json
        self.started = started
        status = FileHandleOutput.standardError.isTerminal
    }

    /// Per-picture events are needed only to show the A-V difference on the status line.
    var wantsFrames: Bool { status }

    func opened(_ player: Player) {
        emit(["event": "open", "file": player.url, "durationSeconds": player.duration ?? NSNull(),
              "video": player.hasVideo, "audio": player.hasAudio])
    }

    /// Prints events until the stream finishes; redraws the status line meanwhile.
    func follow(_ events: AsyncStream<PlayerEvent>, player: Player) async {
        var lastFrame: Double?
        var lastDraw = 0.0
        let clock = MonotonicTimeSource()
        for await event in events {
            switch event {
            case .stateChanged(let state): emit(["event": "state", "state": state.rawValue])
            case .seekCompleted(let position): emit(["event": "seeked", "position": position])
            case .warning(let message):
                if json { emit(["event": "warning", "message": message]) } else { clearStatus(); printError("warning: \(message)") }
            case .ended: emit(["event": "ended"])
            case .firstFrame(let position, let host):
                emit(["event": "firstFrame", "position": position, "sinceStartSeconds": rounded(host - started, 6)])
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

    func finished(stats: PlaybackStats, mediaSeconds: Double, wallSeconds: Double) {
        emit(["event": "end", "videoFrames": stats.videoFrames, "audioSamples": stats.audioSamples,
              "droppedFrames": stats.droppedFrames, "warnings": stats.warnings, "durationSeconds": rounded(mediaSeconds),
              "wallSeconds": rounded(wallSeconds)])
    }

    private func drawStatus(player: Player, lastFrame: Double?) {
        let position = player.position
        let total = player.duration.map(Self.timestamp) ?? "--:--:--"
        var line = "\(player.hasAudio && player.hasVideo ? "AV" : player.hasVideo ? "V" : "A"): \(Self.timestamp(position)) / \(total)"
        if player.hasAudio, player.hasVideo, let lastFrame {
            line += String(format: " A-V: %+.3f", position - lastFrame)
        }
        if player.rate != 1 { line += String(format: " Speed: %.2fx", player.rate) }
        line += " Dropped: \(player.stats.droppedFrames)"
        FileHandleOutput.standardError.write("\r\u{1B}[K" + line)
    }

    private func clearStatus() { if status { FileHandleOutput.standardError.write("\r\u{1B}[K") } }

    static func timestamp(_ seconds: Double) -> String {
        let s = max(0, Int(seconds))
        return String(format: "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
    }

    private func rounded(_ v: Double, _ digits: Int = 3) -> Double {
        let scale = pow(10, Double(digits))
        return (v * scale).rounded() / scale
    }

    private func emit(_ object: [String: Any]) {
        guard json, let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        FileHandleOutput.standardOutput.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
