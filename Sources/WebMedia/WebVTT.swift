import Foundation

/// Subtitle events as a WebVTT document, what a `<track kind=subtitles>` loads. Pure: libavcodec
/// gives every text format (SRT, ASS/SSA, mov_text, WebVTT…) as ASS event lines; their text keeps
/// its line breaks and its italics, bold and underline, and loses the rest of ASS's styling
/// (positions, colours, karaoke), which WebVTT cannot say the same way.
public enum WebVTT {
    /// A cue on the item's timeline (seconds from the container's start); `end` nil: until the next.
    public struct Cue: Sendable, Equatable {
        public var start: Double
        public var end: Double?
        /// The text, as an ASS event line or its text field alone.
        public var ass: String

        public init(start: Double, end: Double?, ass: String) {
            self.start = start
            self.end = end
            self.ass = ass
        }
    }

    /// How long a cue without an end stays when no cue follows it.
    public static let openEndSeconds = 5.0

    /// The document of `cues` (in any order).
    public static func document(_ cues: [Cue]) -> String {
        let sorted = cues.sorted { $0.start < $1.start }
        var out = "WEBVTT\n\n"
        var number = 0
        for (i, cue) in sorted.enumerated() {
            let start = max(0, cue.start)
            let following = sorted[(i + 1)...].first { $0.start > cue.start }?.start
            let end = cue.end ?? following ?? start + openEndSeconds
            let text = self.text(fromASS: cue.ass)
            guard end > start, !text.isEmpty else { continue }
            number += 1
            out += "\(number)\n\(timestamp(start)) --> \(timestamp(end))\n\(text)\n\n"
        }
        return out
    }

    /// `hh:mm:ss.mmm`.
    public static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((max(0, seconds) * 1000).rounded())
        let h = milliseconds / 3_600_000, m = milliseconds / 60_000 % 60, s = milliseconds / 1000 % 60, ms = milliseconds % 1000
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))"
    }

    /// The WebVTT text of an ASS event: the text field (after the eighth comma of
    /// "ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text"), override blocks dropped
    /// but for italics, bold and underline, `\N` as a line break, `&`, `<` and `>` escaped, and no
    /// blank line (which would end the cue).
    public static func text(fromASS line: String) -> String {
        let fields = line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        let raw = fields.count == 9 ? String(fields[8]) : line
        var out = ""
        var open: [Character] = []
        var drawing = false  // \p1…: vector drawing commands, not text
        var i = raw.startIndex
        while i < raw.endIndex {
            let c = raw[i]
            if c == "{", let close = raw[i...].firstIndex(of: "}") {
                for tag in raw[raw.index(after: i)..<close].split(separator: "\\") {
                    if tag.first == "p", tag.count > 1, tag.dropFirst().allSatisfy(\.isNumber) { drawing = tag != "p0" }
                    guard tag.count == 2, let kind = tag.first, "ibu".contains(kind), let state = tag.last else { continue }
                    if state == "1", !open.contains(kind) {
                        open.append(kind)
                        out += "<\(kind)>"
                    } else if state == "0", let at = open.lastIndex(of: kind) {
                        // Close it and anything opened inside it.
                        for inner in open[at...].reversed() { out += "</\(inner)>" }
                        open.removeSubrange(at...)
                    }
                }
                i = raw.index(after: close)
                continue
            }
            if drawing {
                i = raw.index(after: i)
                continue
            }
            if c == "\\", let next = raw[raw.index(after: i)...].first, "Nnh".contains(next) {
                out += next == "h" ? "\u{00A0}" : "\n"
                i = raw.index(i, offsetBy: 2)
                continue
            }
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": break
            default: out.append(c)
            }
            i = raw.index(after: i)
        }
        for kind in open.reversed() { out += "</\(kind)>" }
        let lines = out.split(separator: "\n", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
