/// A JSON value as read from and written to mpv IPC clients.
///
/// Numbers keep mpv's distinction between integers (no fraction or exponent, fits in `Int64`)
/// and floating point, because mpv requires integers for `request_id` and observer ids.
/// Objects are serialized with their keys sorted, so output is deterministic.
public enum IPCJSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int64`.
    case integer(Int64)
    /// Any other number. Non-finite values are written as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([IPCJSON])
    /// An object; when parsing, a repeated key keeps its last value.
    case object([String: IPCJSON])

    /// Parses one complete JSON text (surrounding whitespace allowed), or returns `nil` when it
    /// is malformed, nested deeper than 50 levels, or followed by anything but whitespace.
    public static func parse(_ text: some StringProtocol) -> IPCJSON? {
        var parser = IPCJSONParser(bytes: Array(text.utf8))
        return parser.parseDocument()
    }

    /// The compact JSON text of this value, without a trailing newline.
    public var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> IPCJSON? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The element at `index` when this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> IPCJSON? {
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

    /// The integer, when this is an integer.
    public var integerValue: Int64? {
        if case .integer(let integer) = self { integer } else { nil }
    }

    /// The number as a `Double`, when this is an integer or a floating-point number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .double(let number): number
        default: nil
        }
    }

    private func write(to output: inout String) {
        switch self {
        case .null:
            output += "null"
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .integer(let integer):
            output += String(integer)
        case .double(let number):
            // Swift's shortest round-trip form ("12.5", "1e-05", "1e+20") is valid JSON.
            output += number.isFinite ? "\(number)" : "null"
        case .string(let string):
            Self.writeString(string, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                members[key]!.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension IPCJSON: CustomStringConvertible {
    public var description: String { serialized }
}

extension IPCJSON: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension IPCJSON: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension IPCJSON: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension IPCJSON: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension IPCJSON: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: IPCJSON...) { self = .array(elements) }
}

extension IPCJSON: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, IPCJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
