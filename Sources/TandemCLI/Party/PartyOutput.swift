import Foundation
import PartyKit
import PartyNet
import Synchronization

/// What `host` and `join` print: notices ("Alice joined the party") and, on a terminal, a live
/// status line; with `--json`, one ``PartyEvent`` per line instead (chat as
/// `{"event":"chat","from":…,"text":…}`).
final class PartyOutput: Sendable {
    let json: Bool
    private let status: Bool
    private let lines: JSONLineWriter
    /// The chat line being typed on the terminal (``TerminalChatInput``): shown in place of the
    /// status line, which never writes over it.
    private let typed = Mutex<String?>(nil)
    /// The last status line drawn, redrawn after a notice.
    private let lastStatus = Mutex("")

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
            printAbove(notice.text)
        }
    }

    func line(_ text: String) {
        if json { lines.emit(PartyEvent.info(text: text)) } else { printAbove(text) }
    }

    /// The chat line as typed so far (nil or empty: nothing is being typed).
    func typing(_ line: String?) {
        typed.withLock { $0 = line?.isEmpty == false ? line : nil }
        redrawBottom()
    }

    /// A line printed above the bottom one (the status, or the chat being typed), which is then redrawn.
    private func printAbove(_ text: String) {
        clear()
        FileHandleOutput.standardError.write(text + "\n")
        redrawBottom()
    }

    private func redrawBottom() {
        guard status, !json else { return }
        if let line = typed.withLock({ $0 }) {
            FileHandleOutput.standardError.write("\r\u{1B}[K> " + line)
        } else {
            FileHandleOutput.standardError.write("\r\u{1B}[K" + lastStatus.withLock { $0 })
        }
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
        lastStatus.withLock { $0 = line }
        if typed.withLock({ $0 }) == nil { FileHandleOutput.standardError.write("\r\u{1B}[K" + line) }
    }

    /// The status line of another kind of session (a Syncplay room's), kept under the chat being
    /// typed as a party's is.
    func show(statusLine line: String) {
        guard status, !json else { return }
        lastStatus.withLock { $0 = line }
        if typed.withLock({ $0 }) == nil { FileHandleOutput.standardError.write("\r\u{1B}[K" + line) }
    }

    func finish() { if status && !json { FileHandleOutput.standardError.write("\n") } }

    private func clear() { if status && !json { FileHandleOutput.standardError.write("\r\u{1B}[K") } }

}
