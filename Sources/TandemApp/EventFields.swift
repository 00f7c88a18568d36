/// The keyed container the `--json` events encode into: any field name, as written.
package struct EventField: CodingKey, ExpressibleByStringLiteral {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
    package init(stringLiteral value: String) { stringValue = value }
}

extension KeyedEncodingContainer where Key == EventField {
    /// Writes a number, or `null` when there is none or it is not finite (JSON has no NaN).
    package mutating func encode(number: Double?, forKey key: EventField) throws {
        if let number, number.isFinite { try encode(number, forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Writes the `event` field that names each line's kind.
    package mutating func encode(event name: String) throws {
        try encode(name, forKey: "event")
    }
}
