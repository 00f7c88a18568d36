import Foundation
import PartyKit
import PartyNet

/// What `host` and `join` print: notices ("Alice joined the party") and, on a terminal, a live
/// status line; with `--json`, one JSON object per line instead.
final class PartyOutput: Sendable {
    let json: Bool
    private let status: Bool

    init(json: Bool) {
        self.json = json
        status = FileHandleOutput.standardError.isTerminal
    }

    func notice(_ notice: PartyNotice) {
        if json {
            emit(["event": "notice", "text": notice.text])
        } else {
            clear()
            FileHandleOutput.standardError.write(notice.text + "\n")
        }
    }

    func line(_ text: String) {
        if json { emit(["event": "info", "text": text]) } else { clear(); FileHandleOutput.standardError.write(text + "\n") }
    }

    func link(_ link: PartyLink) {
        if json { emit(["event": "party", "link": link.description, "party": link.party]) } else {
            FileHandleOutput.standardOutput.write(link.description + "\n")
        }
    }

    /// Redraws the status line (terminal) or prints a status event (JSON).
    func show(_ s: PartyMember.Status) {
        if json {
            emit(["event": "status", "party": s.party, "participants": s.participants.count, "synced": s.synced,
                  "skewMs": s.skewMs.map { ($0 * 1000).rounded() / 1000 } ?? NSNull(), "position": s.position ?? NSNull(),
                  "playing": s.playing, "connected": s.connected])
            return
        }
        guard status else { return }
        var line = "party \(s.party) · \(s.participants.count) here"
        if !s.connected { line += " · reconnecting…" } else if !s.synced { line += " · syncing" }
        if let skew = s.skewMs { line += String(format: " · skew %+.2f ms", skew) }
        if let p = s.position {
            line += " · \(EventOutput.timestamp(p)) / \(s.duration.map(EventOutput.timestamp) ?? "--:--:--")"
            line += s.playing ? "" : " (paused)"
        }
        FileHandleOutput.standardError.write("\r\u{1B}[K" + line)
    }

    func finish() { if status && !json { FileHandleOutput.standardError.write("\n") } }

    private func clear() { if status && !json { FileHandleOutput.standardError.write("\r\u{1B}[K") } }

    private func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        FileHandleOutput.standardOutput.write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
