import Foundation
import PartyKit
import PartyClient
import Synchronization

/// What `host` and `join` print: notices ("Alice joined the party") and, on a terminal, a live
/// status line; with `--json`, one ``PartyEvent`` per line instead (chat as
/// `{"event":"chat","from":…,"text":…}`).
package final class PartyOutput: Sendable {
    package let json: Bool
    private let status: Bool
    private let lines: JSONLineWriter
    /// The bottom line of the terminal, under one lock with every write to it: the chat line being
    /// typed (``TerminalChatInput``) is shown in place of the status line, and a status update
    /// from another thread can never write over it between the check and the write.
    private let bottom = Mutex(Bottom())

    private struct Bottom {
        /// The chat line being typed; nil: nothing is being typed.
        package var typed: String?
        /// The last status line, redrawn after a notice.
        package var status = ""
    }

    /// - Parameters:
    ///   - json: Print ``PartyEvent`` lines to `lines` instead of text.
    ///   - statusLine: Redraw the status line on standard error (default: when it is a terminal).
    package init(json: Bool, statusLine: Bool = FileHandleOutput.standardError.isTerminal, lines: JSONLineWriter = .standardOutput) {
        self.json = json
        self.lines = lines
        status = statusLine
    }

    package func notice(_ notice: PartyNotice) {
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

    package func line(_ text: String) {
        if json { lines.emit(PartyEvent.info(text: text)) } else { printAbove(text) }
    }

    /// The chat line as typed so far (nil or empty: nothing is being typed).
    package func typing(_ line: String?) {
        bottom.withLock { b in
            b.typed = line?.isEmpty == false ? line : nil
            redraw(b)
        }
    }

    /// A line printed above the bottom one (the status, or the chat being typed), which is then redrawn.
    private func printAbove(_ text: String) {
        bottom.withLock { b in
            if status && !json { FileHandleOutput.standardError.write("\r\u{1B}[K") }
            FileHandleOutput.standardError.write(text + "\n")
            redraw(b)
        }
    }

    /// Called with the lock held.
    private func redraw(_ b: Bottom) {
        guard status, !json else { return }
        FileHandleOutput.standardError.write("\r\u{1B}[K" + (b.typed.map { "> " + $0 } ?? b.status))
    }

    /// The party's link on standard output (or a `party` event). `reach`: whom it is for when there
    /// are two (`internet`, `lan`): on a terminal a line above it says so.
    package func link(_ link: PartyLink, reach: String? = nil) {
        if json {
            lines.emit(PartyEvent.party(link: link.description, party: link.party, reach: reach, web: link.browserLink))
        } else {
            if let reach { printAbove(reach == "internet" ? "for guests on the internet:" : "for guests on your LAN:") }
            FileHandleOutput.standardOutput.write(link.description + "\n")
            FileHandleOutput.standardOutput.write("in a browser: " + link.browserLink + "\n")
        }
    }

    /// Redraws the status line (terminal) or prints a status event (JSON).
    package func show(_ s: PartyMember.Status) {
        // Its own presence, as the party lists it: "buffering" while its stream refills.
        let buffering = s.participants.first { $0.id == s.me?.id }?.presence?.isBuffering == true
        if json {
            lines.emit(PartyEvent.status(.init(
                party: s.party, participants: s.participants.count, synced: s.synced,
                skewMs: s.skewMs.map { ($0 * 1000).rounded() / 1000 }, position: s.position,
                playing: s.playing, connected: s.connected, buffering: buffering, behindLive: s.behindLive)))
            return
        }
        guard status else { return }
        var line = "party \(s.party) · \(s.participants.count) here"
        if !s.connected { line += " · reconnecting…" } else if buffering { line += " · buffering" } else if !s.synced { line += " · syncing" }
        if let skew = s.skewMs { line += String(format: " · skew %+.2f ms", skew) }
        if let p = s.position {
            if let behind = s.behindLive {
                line += " · \(EventOutput.timestamp(p)) · LIVE −\(Int(behind.rounded()))s"
            } else {
                line += " · \(EventOutput.timestamp(p)) / \(s.duration.map(EventOutput.timestamp) ?? "--:--:--")"
            }
            line += s.playing ? "" : " (paused)"
        }
        show(statusLine: line)
    }

    /// Redraws the status line, unless a chat line is being typed (then it shows after it): a
    /// party's, or another kind of session's (a Syncplay room's).
    package func show(statusLine line: String) {
        guard status, !json else { return }
        bottom.withLock { b in
            b.status = line
            if b.typed == nil { FileHandleOutput.standardError.write("\r\u{1B}[K" + line) }
        }
    }

    package func finish() { if status && !json { FileHandleOutput.standardError.write("\n") } }

}
