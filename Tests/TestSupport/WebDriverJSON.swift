import Foundation

extension WebDriver {
    /// A JSON value: script arguments and results, WebDriver bodies. Literals build one
    /// (`["a": 1, "b": [true, "x"]]`); `value["a"]?.int`, `.string`, `.bool`, `.double`, `.array`, `.object` read one.
    public enum JSON: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
                      ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
                      ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
        case null, bool(Bool), number(Double), string(String), array([JSON]), object([String: JSON])

        public init(stringLiteral value: String) { self = .string(value) }
        public init(integerLiteral value: Int) { self = .number(Double(value)) }
        public init(floatLiteral value: Double) { self = .number(value) }
        public init(booleanLiteral value: Bool) { self = .bool(value) }
        public init(arrayLiteral elements: JSON...) { self = .array(elements) }
        public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(elements) { $1 }) }
        public init(nilLiteral: ()) { self = .null }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([JSON].self) { self = .array(value) }
            else { self = .object(try container.decode([String: JSON].self)) }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }

        public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
        public var double: Double? { if case .number(let value) = self { value } else { nil } }
        /// The number when it is a whole one.
        public var int: Int? { double.flatMap { Int(exactly: $0) } }
        public var string: String? { if case .string(let value) = self { value } else { nil } }
        public var array: [JSON]? { if case .array(let value) = self { value } else { nil } }
        public var object: [String: JSON]? { if case .object(let value) = self { value } else { nil } }
        public var isNull: Bool { self == .null }
        public subscript(key: String) -> JSON? { object?[key] }
        public subscript(index: Int) -> JSON? { array.flatMap { $0.indices.contains(index) ? $0[index] : nil } }

        /// JavaScript's truthiness (objects and arrays are truthy).
        public var isTruthy: Bool {
            switch self {
            case .null: false
            case .bool(let value): value
            case .number(let value): value != 0 && !value.isNaN
            case .string(let value): !value.isEmpty
            case .array, .object: true
            }
        }

        public var description: String {
            guard let data = try? JSONEncoder().encode(self) else { return "?" }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
