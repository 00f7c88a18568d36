import Foundation
import SyncplayKit
import SyncplayClient

/// What `join syncplay://…` prints, in the shape of a party's output: notices and chat as lines
/// (with `--json`, `notice`, `chat` and `status` events as for a Tandem party), and on a terminal
/// a live status line. Text goes through a ``PartyOutput`` (``terminal``), so the chat being typed
/// (``TerminalChatInput``) stays on the bottom line as in a party.
package final class SyncplayOutput: Sendable {
    package let json: Bool
    /// The terminal's lines: notices above, the status or the chat being typed at the bottom.
    package let terminal: PartyOutput
    private let lines: JSONLineWriter

    package init(json: Bool, statusLine: Bool = FileHandleOutput.standardError.isTerminal, lines: JSONLineWriter = .standardOutput) {
        self.json = json
        self.lines = lines
        terminal = PartyOutput(json: json, statusLine: statusLine, lines: lines)
    }

    package func notice(_ notice: SyncplayNotice) {
        if json {
            if case .chat(let from, let text) = notice {
                lines.emit(PartyEvent.chat(from: from, text: text))
            } else {
                lines.emit(PartyEvent.notice(text: notice.text))
            }
        } else {
            terminal.line(notice.text)
        }
    }

    package func line(_ text: String) {
        terminal.line(text)
    }

    /// Redraws the status line (terminal) or prints a status event (JSON).
    package func show(_ s: SyncplaySession.Status) {
        if json {
            lines.emit(PartyEvent.status(.init(
                party: s.room, participants: s.users.count + (s.connected ? 1 : 0), synced: s.connected && s.position != nil,
                skewMs: s.skewMs.map { ($0 * 1000).rounded() / 1000 }, position: s.position,
                playing: !s.paused, connected: s.connected)))
            return
        }
        var line = "syncplay room \(s.room) as \(s.me) · \(s.users.count + 1) here"
        if !s.connected { line += s.reconnecting ? " · reconnecting…" : " · connecting…" }
        if let skew = s.skewMs { line += String(format: " · off %+.0f ms", skew) }
        if let p = s.position {
            line += " · \(EventOutput.timestamp(p)) / \(s.duration.map(EventOutput.timestamp) ?? "--:--:--")"
            line += s.paused ? " (paused)" : ""
        }
        terminal.show(statusLine: line)
    }

    package func finish() { terminal.finish() }
}
