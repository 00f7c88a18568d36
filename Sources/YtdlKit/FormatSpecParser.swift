/// Parses `--ytdl-format` text into a ``FormatSpec``.
///
/// Supported (a subset of yt-dlp's syntax, the forms mpv users write):
/// - alternatives separated by `/`: `bestvideo+bestaudio/best`, `22/18`;
/// - `best`, `worst` (`b`, `w`): one format with video and sound (any format when the page has no
///   such one); `bestvideo`, `worstvideo` (`bv`, `wv`): video only; `bestaudio`, `worstaudio` (`ba`,
///   `wa`): sound only; a `*` after any of them relaxes it to "with" (`bv*`: video, with or without
///   sound; `b*`: anything);
/// - a file extension (`mp4`, `webm`, `flv`, `3gp` with video and sound; `m4a`, `mp3`, `ogg`, `aac`,
///   `wav`, `opus` with sound): the best single format of that extension;
/// - any other word is a format ID (`22`, `hls-720p`);
/// - filters after a selector, or alone for `best`: `[height<=720]`, `[ext=mp4]` (``FormatFilter``);
/// - two selectors merged with `+` (`bestvideo[height<=720]+bestaudio`).
///
/// Not supported, each refused with a message saying so: grouping with `( )`, several formats at once
/// with `,`, merging more than two, `all`/`mergeall`, the `.N` n-th best suffix (`bv.2`).
public enum FormatSpecParser {
    /// Extensions yt-dlp reads as "the best single format of this extension", with video and sound.
    static let videoExtensions: Set<String> = ["mp4", "webm", "flv", "3gp"]
    /// The same, with sound.
    static let audioExtensions: Set<String> = ["m4a", "mp3", "ogg", "aac", "wav", "opus"]

    /// Why a `--ytdl-format` is refused: `description` says what and where.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The `--ytdl-format` given.
        public let text: String
        /// What is wrong with it.
        public let reason: String
        /// One line naming the option, the text and the reason.
        public var description: String { "--ytdl-format \"\(text)\": \(reason)" }

        /// The refusal of `text` for `reason`.
        public init(text: String, reason: String) {
            self.text = text
            self.reason = reason
        }
    }

    /// The spec `text` writes, or why it is refused.
    public static func parse(_ text: String) throws(Failure) -> FormatSpec {
        var parser = Parser(text: text)
        return try parser.spec()
    }

    private struct Parser {
        let text: String
        let characters: [Character]
        var index = 0

        init(text: String) {
            self.text = text
            characters = Array(text)
        }

        func fail(_ reason: String) -> Failure { Failure(text: text, reason: reason) }

        mutating func spec() throws(Failure) -> FormatSpec {
            var alternatives: [FormatSpec.Choice] = []
            repeat {
                alternatives.append(try choice())
            } while take("/")
            skipSpaces()
            if index < characters.count { throw unexpected() }
            return FormatSpec(alternatives: alternatives)
        }

        mutating func choice() throws(Failure) -> FormatSpec.Choice {
            let first = try selector()
            guard take("+") else { return .single(first) }
            let second = try selector()
            if peek() == "+" { throw fail("merging more than two formats is not supported") }
            return .merge(first, second)
        }

        mutating func selector() throws(Failure) -> FormatSpec.Selector {
            skipSpaces()
            let start = index
            let word = self.word()
            var filters: [FormatFilter] = []
            skipSpaces()
            while peek() == "[" {
                filters.append(try filter())
                skipSpaces()
            }
            if word.isEmpty && filters.isEmpty {
                throw index < characters.count ? unexpected() : fail("a selector is missing at the end")
            }
            let written = String(characters[start..<index]).trimmedSpaces()
            return FormatSpec.Selector(target: try target(word), filters: filters, text: written)
        }

        func target(_ word: String) throws(Failure) -> FormatSpec.Target {
            if word.isEmpty { return .ranked(.best, .videoAndAudio) }  // `[height<=720]` alone: the best with it
            let lower = word.lowercased()
            if let ranked = Self.ranked[lower] { return ranked }
            if lower == "all" || lower == "mergeall" { throw fail("\(word) (several formats at once) is not supported") }
            if lower.wholeMatch(of: /(b|w|best|worst)(v|a|video|audio)?\*?\.[0-9]+/) != nil {
                throw fail("\(word): the n-th best (.N) is not supported")
            }
            if videoExtensions.contains(lower) || audioExtensions.contains(lower) { return .ext(lower) }
            return .formatID(word)
        }

        static let ranked: [String: FormatSpec.Target] = {
            var table: [String: FormatSpec.Target] = [:]
            for (rank, long, short) in [(FormatSpec.Rank.best, "best", "b"), (.worst, "worst", "w")] {
                let kinds: [(String, String, FormatSpec.Content, FormatSpec.Content)] = [
                    ("", "", .videoAndAudio, .any), ("video", "v", .videoOnly, .video), ("audio", "a", .audioOnly, .audio),
                ]
                for (longKind, shortKind, strict, relaxed) in kinds {
                    for name in [long + longKind, short + shortKind] {
                        table[name] = .ranked(rank, strict)
                        table[name + "*"] = .ranked(rank, relaxed)
                    }
                }
            }
            return table
        }()

        /// `[field OP value]`.
        mutating func filter() throws(Failure) -> FormatFilter {
            index += 1  // "["
            guard let close = characters[index...].firstIndex(of: "]") else { throw fail("a [ is not closed") }
            let body = String(characters[index..<close])
            index = close + 1
            let fieldName = String(body.prefix { $0.isLetter || $0 == "_" })
            var rest = Substring(body.dropFirst(fieldName.count)).drop { $0 == " " }
            guard !fieldName.isEmpty else { throw fail("[\(body)]: a filter starts with a field name, e.g. [height<=720]") }
            if let field = FormatFilter.NumericField(rawValue: fieldName) {
                guard let comparison = FormatFilter.NumericComparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
                    throw fail("[\(body)]: \(fieldName) compares with <, <=, >, >=, = or !=")
                }
                rest = rest.dropFirst(comparison.rawValue.count)
                let optional = rest.hasPrefix("?")
                if optional { rest = rest.dropFirst() }
                let valueText = rest.trimmedSpaces()
                guard let value = Double(valueText), value.isFinite else { throw fail("[\(body)]: \(fieldName) needs a number, not \"\(valueText)\"") }
                return FormatFilter(.number(field, comparison, value), passesWhenMissing: optional)
            }
            if let field = FormatFilter.TextField(rawValue: fieldName) {
                let negated = rest.hasPrefix("!")
                if negated { rest = rest.dropFirst() }
                guard let comparison = FormatFilter.TextComparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
                    throw fail("[\(body)]: \(fieldName) compares with =, ^=, $=, *= or ~= (! before any negates)")
                }
                rest = rest.dropFirst(comparison.rawValue.count)
                let optional = rest.hasPrefix("?")
                if optional { rest = rest.dropFirst() }
                let value = rest.trimmedSpaces()
                guard !value.isEmpty else { throw fail("[\(body)]: a value is missing") }
                if comparison == .matches, (try? Regex(value)) == nil { throw fail("[\(body)]: not a regular expression") }
                return FormatFilter(.text(field, comparison, value, negated: negated), passesWhenMissing: optional)
            }
            let known = (FormatFilter.NumericField.allCases.map(\.rawValue) + FormatFilter.TextField.allCases.map(\.rawValue)).joined(separator: ", ")
            throw fail("[\(body)]: no field \"\(fieldName)\" (fields: \(known))")
        }

        /// A run of characters that are not syntax.
        mutating func word() -> String {
            let start = index
            while index < characters.count, !"/+[](),".contains(characters[index]), characters[index] != " " { index += 1 }
            return String(characters[start..<index])
        }

        func peek() -> Character? {
            var i = index
            while i < characters.count, characters[i] == " " { i += 1 }
            return i < characters.count ? characters[i] : nil
        }

        mutating func take(_ character: Character) -> Bool {
            skipSpaces()
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() { while index < characters.count, characters[index] == " " { index += 1 } }

        func unexpected() -> Failure {
            switch characters[index] {
            case "(", ")": fail("grouping with ( ) is not supported")
            case ",": fail("several formats at once (,) are not supported: Tandem plays one")
            case "]": fail("a ] without its [")
            default: fail("unexpected \"\(characters[index])\" at character \(index + 1)")
            }
        }
    }
}

private extension StringProtocol {
    /// Without leading and trailing spaces.
    func trimmedSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
