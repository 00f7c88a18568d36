import Foundation
import PartyKit
import PartyNet

/// What `host` and `join` print: notices ("Alice joined the party") and, on a terminal, a live
/// status line; with `--json`, one ``PartyEvent`` per line instead (chat as
/// `{"event":"chat","from":…,"text":…}`).
final class PartyOutput: Sendable {
    let json: Bool
    private let status: Bool
    private let lines: JSONLineWriter

    /// - Parameters:
    ///   - json: Print ``PartyEvent`` lines to `lines` instead of text.
    ///   - statusLine: Redraw the status line on standard error (default: when it is a terminal).
    init(json: Bool, statusLine: Bool = FileHandleOutput.standardError.isTerminal, lines: JSONLineWriter = .standardOutput) {
        self.json = json
        self.lines = lines
        status = statusLine
    }

    func notice(_ notice: PartyNotice) {
        if json {
            if case .chat(let message) = notice {
                lines.emit(PartyEvent.chat(from: message.from, text: message.text))
            } else {
                lines.emit(PartyEvent.notice(text: notice.text))
            }
        } else {
            clear()
            FileHandleOutput.standardError.write(notice.text + "\n")
        }
    }

    func line(_ text: String) {
        if json { lines.emit(PartyEvent.info(text: text)) } else { clear(); FileHandleOutput.standardError.write(text + "\n") }
    }

    func link(_ link: PartyLink) {
        if json { lines.emit(PartyEvent.party(link: link.description, party: link.party)) } else {
            FileHandleOutput.standardOutput.write(link.description + "\n")
        }
    }

    /// Redraws the status line (terminal) or prints a status event (JSON).
    func show(_ s: PartyMember.Status) {
        // Its own presence, as the party lists it: "buffering" while its stream refills.
        let buffering = s.participants.first { $0.id == s.me?.id }?.presence?.isBuffering == true
        if json {
            lines.emit(PartyEvent.status(.init(
                party: s.party, participants: s.participants.count, synced: s.synced,
                skewMs: s.skewMs.map { ($0 * 1000).rounded() / 1000 }, position: s.position,
                playing: s.playing, connected: s.connected, buffering: buffering)))
            return
        }
        guard status else { return }
        var line = "party \(s.party) · \(s.participants.count) here"
        if !s.connected { line += " · reconnecting…" } else if buffering { line += " · buffering" } else if !s.synced { line += " · syncing" }
        if let skew = s.skewMs { line += String(format: " · skew %+.2f ms", skew) }
        if let p = s.position {
            line += " · \(EventOutput.timestamp(p)) / \(s.duration.map(EventOutput.timestamp) ?? "--:--:--")"
            line += s.playing ? "" : " (paused)"
        }
        FileHandleOutput.standardError.write("\r\u{1B}[K" + line)
    }

    func finish() { if status && !json { FileHandleOutput.standardError.write("\n") } }

    private func clear() { if status && !json { FileHandleOutput.standardError.write("\r\u{1B}[K") } }

}
