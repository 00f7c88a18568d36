/// The keyed container the `--json` events encode into: any field name, as written.
struct EventField: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}

extension KeyedEncodingContainer where Key == EventField {
    /// Writes a number, or `null` when there is none or it is not finite (JSON has no NaN).
    mutating func encode(number: Double?, forKey key: EventField) throws {
        if let number, number.isFinite { try encode(number, forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// Writes the `event` field that names each line's kind.
    mutating func encode(event name: String) throws {
        try encode(name, forKey: "event")
    }
}
