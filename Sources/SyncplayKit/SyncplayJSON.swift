import Foundation

/// A JSON value as Syncplay sends it: decoded without a schema, so unknown fields pass through
/// untouched and typed messages pick out only what they know.
public enum SyncplayJSON: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SyncplayJSON])
    case object([String: SyncplayJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SyncplayJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SyncplayJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value.isFinite ? value : 0)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public subscript(key: String) -> SyncplayJSON? {
        if case .object(let fields) = self { fields[key] } else { nil }
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    /// Numbers; Syncplay's Python sends integers and floats alike.
    public var double: Double? { if case .number(let n) = self, n.isFinite { n } else { nil } }
    public var int: Int? {
        guard let n = double, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
        return Int(n)
    }
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var object: [String: SyncplayJSON]? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }
}
