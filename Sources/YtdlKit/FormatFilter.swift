/// One bracketed condition of a `--ytdl-format` selector, as in yt-dlp and mpv: `[height<=720]`,
/// `[ext=mp4]`, `[vcodec^=avc1]`, `[fps>30]`, `[tbr<?2000]`.
///
/// Numbers compare with `<` `<=` `>` `>=` `=` `!=`; text with `=` (equal), `^=` (starts with), `$=`
/// (ends with), `*=` (contains), `~=` (matches the regular expression), each negated by a leading
/// `!`. A `?` after the operator lets a format without that field through (`[height<=?720]`);
/// without it, a format that does not say fails the condition.
public struct FormatFilter: Sendable, Equatable, CustomStringConvertible {
    /// The numeric fields a filter may name (yt-dlp's names).
    public enum NumericField: String, Sendable, CaseIterable {
        case width, height, fps, tbr, vbr, abr, asr
        case audioChannels = "audio_channels"
        case filesize
        case filesizeApprox = "filesize_approx"
    }

    /// The text fields a filter may name (yt-dlp's names).
    public enum TextField: String, Sendable, CaseIterable {
        case ext, vcodec, acodec, `protocol`, language, container
        case formatID = "format_id"
        case dynamicRange = "dynamic_range"
        case formatNote = "format_note"
    }

    /// How a numeric field compares with the filter's number.
    public enum NumericComparison: String, Sendable, CaseIterable {
        // Two-character operators first: the parser tries them in this order.
        case lessOrEqual = "<=", greaterOrEqual = ">=", notEqual = "!=", less = "<", greater = ">", equal = "="
    }

    /// How a text field compares with the filter's text.
    public enum TextComparison: String, Sendable, CaseIterable {
        case startsWith = "^=", endsWith = "$=", contains = "*=", matches = "~=", equal = "="
    }

    /// What the filter asks of a format.
    public enum Condition: Sendable, Equatable {
        /// `[height<=720]`.
        case number(NumericField, NumericComparison, Double)
        /// `negated`: a leading `!` (`[vcodec!=none]`, `[ext!^=m]`).
        case text(TextField, TextComparison, String, negated: Bool)
    }

    /// What it asks.
    public var condition: Condition
    /// `?`: a format without the field passes.
    public var passesWhenMissing: Bool

    /// A filter asking `condition`, letting formats without the field through when `passesWhenMissing`.
    public init(_ condition: Condition, passesWhenMissing: Bool = false) {
        self.condition = condition
        self.passesWhenMissing = passesWhenMissing
    }

    /// Whether `format` meets the condition.
    public func admits(_ format: YtdlFormat) -> Bool {
        switch condition {
        case .number(let field, let comparison, let value):
            guard let actual = format.number(field) else { return passesWhenMissing }
            switch comparison {
            case .less: return actual < value
            case .lessOrEqual: return actual <= value
            case .greater: return actual > value
            case .greaterOrEqual: return actual >= value
            case .equal: return actual == value
            case .notEqual: return actual != value
            }
        case .text(let field, let comparison, let value, let negated):
            guard let actual = format.string(field) else { return passesWhenMissing }
            let holds: Bool
            switch comparison {
            case .equal: holds = actual == value
            case .startsWith: holds = actual.hasPrefix(value)
            case .endsWith: holds = actual.hasSuffix(value)
            case .contains: holds = actual.contains(value)
            case .matches: holds = (try? Regex(value)).flatMap { try? $0.firstMatch(in: actual) } != nil
            }
            return holds != negated
        }
    }

    /// As written in a `--ytdl-format`.
    public var description: String {
        let missing = passesWhenMissing ? "?" : ""
        switch condition {
        case .number(let field, let comparison, let value):
            let number = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            return "[\(field.rawValue)\(comparison.rawValue)\(missing)\(number)]"
        case .text(let field, let comparison, let value, let negated):
            return "[\(field.rawValue)\(negated ? "!" : "")\(comparison.rawValue)\(missing)\(value)]"
        }
    }
}
