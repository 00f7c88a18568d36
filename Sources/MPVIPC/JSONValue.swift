import Foundation

/// Any JSON value, read and written through Foundation's `JSONDecoder` and `JSONEncoder`.
///
/// mpv IPC requests are arrays and objects of arbitrary shape (`{"command":["seek",5,"absolute"]}`),
/// so they are decoded into this type rather than into fixed structs. Numbers are `Double`s: an
/// integer such as a `request_id` comes back as written as long as it is within ±2⁵³.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number. Non-finite values are written as `null`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its keys are written sorted.
    case object([String: JSONValue])

    /// Values nested deeper than this are rejected when decoding, as mpv does (`MAX_JSON_DEPTH`):
    /// hostile input cannot make decoding recurse without bound.
    public static let maxDepth = 50

    /// The encoder behind ``serialized``: compact, keys sorted (deterministic output), `/` as is.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Parses one complete JSON text (surrounding whitespace allowed), or returns `nil` when it is
    /// malformed, nested deeper than ``maxDepth``, or followed by anything but whitespace.
    ///
    /// Foundation's decoder also accepts a trailing comma in arrays and objects, as mpv does.
    public static func parse(_ text: some StringProtocol) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// The compact JSON text of this value, without a trailing newline.
    public var serialized: String {
        guard let data = try? Self.encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element at `index` when this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }

    /// The flag, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    /// The number, when this is a number.
    public var doubleValue: Double? {
        if case .number(let number) = self { number } else { nil }
    }

    /// The number, when this is a number without a fraction that fits in `Int64`.
    public var integerValue: Int64? {
        guard case .number(let number) = self, let integer = Int64(exactly: number) else { return nil }
        return integer
    }
}

extension JSONValue: Codable {
    /// A key of an object member, any string.
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count < Self.maxDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "JSON nested deeper than \(Self.maxDepth) levels"))
        }
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let flag = try? single.decode(Bool.self) { self = .bool(flag); return }
            if let number = try? single.decode(Double.self) { self = .number(number); return }
            if let string = try? single.decode(String.self) { self = .string(string); return }
        }
        if var list = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !list.isAtEnd {
                elements.append(try list.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        let object = try decoder.container(keyedBy: MemberKey.self)
        var members: [String: JSONValue] = [:]
        for key in object.allKeys {
            members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
        }
        self = .object(members)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if number.isFinite { try single.encode(number) } else { try single.encodeNil() }
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let elements):
            var list = encoder.unkeyedContainer()
            for element in elements { try list.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in members { try object.encode(value, forKey: MemberKey(stringValue: key)) }
        }
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
