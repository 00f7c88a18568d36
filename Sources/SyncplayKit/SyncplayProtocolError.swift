/// Why a line from a Syncplay peer was refused. The text names the problem and quotes a short
/// excerpt of the offending line, never all of it.
public enum SyncplayProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line longer than ``SyncplayCodec/maxLineBytes`` (or one that never ends).
    case lineTooLong(bytes: Int, limit: Int)
    case notUTF8
    case notJSON(excerpt: String)
    /// Valid JSON, but not an object of commands.
    case notAnObject(excerpt: String)
    /// A known command with a field of the wrong kind, or a required field missing.
    case badField(command: String, field: String, problem: String)

    public var description: String {
        switch self {
        case .lineTooLong(let bytes, let limit): "a line of more than \(limit) bytes (\(bytes) so far)"
        case .notUTF8: "a line that is not UTF-8"
        case .notJSON(let excerpt): "a line that is not JSON: \(excerpt)"
        case .notAnObject(let excerpt): "a line that is not a JSON object of commands: \(excerpt)"
        case .badField(let command, let field, let problem): "a \(command) whose \(field) \(problem)"
        }
    }

    /// At most this many characters of a bad line are quoted in an error.
    static let excerptLength = 60

    static func excerpt(_ line: String) -> String {
        line.count <= excerptLength ? line : String(line.prefix(excerptLength)) + "…"
    }
}
