/// Decodes the messages a party server reads most, time pings and statuses (nearly every message a
/// member sends), and the one a member reads most, time pongs, in one pass over their UTF-8 without Foundation's decoder, its `Data` copy and its
/// allocations. A server reads one per member several times a second.
///
/// Only flat objects of plain values are taken: numbers, strings without escapes, `true`, `false`
/// and `null`. Anything else (another type, an escape, a nested value, a duplicate field, a field of
/// the wrong kind, a number beyond `Double`) gives `nil`, and ``PartyProtocol/decode(_:)`` then asks
/// Foundation's decoder, which decides and words the error. So what this returns is what Foundation's
/// decoder would have returned for the same text (the tests compare both).
enum HotMessageDecoder {
    /// The message in `text`, or nil when Foundation's decoder must decide.
    static func decode(_ text: String) -> PartyMessage? {
        var text = text
        return text.withUTF8 { decode(utf8: $0) }
    }

    /// The fields either hot message has, by position in the scanned fields.
    private enum Key: Int, CaseIterable {
        case type, id, t0, t1, t2, epoch, state, skewMs, rttMs, offsetUncertaintyMs, source, problem, buffering

        init?(_ name: UnsafeBufferPointer<UInt8>) {
            for key in Key.allCases where key.name.utf8CodeUnitCount == name.count {
                if name.elementsEqual(UnsafeBufferPointer(start: key.name.utf8Start, count: key.name.utf8CodeUnitCount)) {
                    self = key
                    return
                }
            }
            return nil
        }

        var name: StaticString {
            switch self {
            case .type: "type"
            case .id: "id"
            case .t0: "t0"
            case .t1: "t1"
            case .t2: "t2"
            case .epoch: "epoch"
            case .state: "state"
            case .skewMs: "skewMs"
            case .rttMs: "rttMs"
            case .offsetUncertaintyMs: "offsetUncertaintyMs"
            case .source: "source"
            case .problem: "problem"
            case .buffering: "buffering"
            }
        }
    }

    /// A scanned value: its kind and, for strings (without the quotes) and numbers, its bytes.
    private enum Value {
        case string(Range<Int>)
        case number(Range<Int>, integer: Bool)
        case bool(Bool)
        case null
    }

    private static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) -> PartyMessage? {
        var scanner = Scanner(bytes: bytes)
        var fields = InlineArray<13, Value?>(repeating: nil)  // one per ``Key``, on the stack
        guard scanner.object(each: { key, value in
            guard let key = Key(key) else { return true }  // unknown fields are ignored
            guard fields[key.rawValue] == nil else { return false }  // a duplicate: Foundation decides
            fields[key.rawValue] = value
            return true
        }) else { return nil }
        func string(_ key: Key) -> String?? {
            switch fields[key.rawValue] {
            case nil, .null?: .some(nil)
            case .string(let range)?: String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            default: nil
            }
        }
        func int(_ key: Key) -> Int? {
            guard case .number(let range, integer: true)? = fields[key.rawValue] else { return nil }
            return Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }
        func double(_ key: Key) -> Double?? {
            switch fields[key.rawValue] {
            case nil, .null?: return .some(nil)
            case .number(let range, _)?:
                let digits = UnsafeBufferPointer(rebasing: bytes[range])
                guard let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite else { return nil }
                // A number too small for a normal Double (1e-400): Foundation's decoder refuses what rounds to zero.
                if value.magnitude < Double.leastNormalMagnitude,
                   digits.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") })
                       .contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) { return nil }
                return value
            default: return nil
            }
        }
        guard case .string(let typeRange)? = fields[Key.type.rawValue] else { return nil }
        let type = UnsafeBufferPointer(rebasing: bytes[typeRange])
        if type.elementsEqual("timePing".utf8) {
            guard let id = int(.id), let t0 = double(.t0), let t0 else { return nil }
            return .timePing(TimePing(id: id, t0: t0))
        }
        if type.elementsEqual("timePong".utf8) {
            guard let id = int(.id), let t0 = double(.t0), let t0, let t1 = double(.t1), let t1,
                  let t2 = double(.t2), let t2 else { return nil }
            return .timePong(TimePong(id: id, t0: t0, t1: t1, t2: t2))
        }
        guard type.elementsEqual("status".utf8), let epoch = int(.epoch),
              let stateName = string(.state), let stateName, let state = Status.State(rawValue: stateName),
              let skewMs = double(.skewMs), let rttMs = double(.rttMs), let uncertainty = double(.offsetUncertaintyMs),
              let source = string(.source), let problem = string(.problem) else { return nil }
        let buffering: Bool?
        switch fields[Key.buffering.rawValue] {
        case nil, .null?: buffering = nil
        case .bool(let value)?: buffering = value
        default: return nil
        }
        // Field by field, as the synthesized decoder sets them (the initializer would normalize).
        var status = Status(epoch: epoch, state: state)
        status.skewMs = skewMs
        status.rttMs = rttMs
        status.offsetUncertaintyMs = uncertainty
        status.source = source
        status.problem = problem
        status.buffering = buffering
        return .status(status)
    }

    /// Reads one flat JSON object (RFC 8259's grammar, values other than objects and arrays).
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        /// Calls `each` with every field's name and value; false if the text is not one flat object
        /// of plain values, or `each` said stop.
        mutating func object(each: (UnsafeBufferPointer<UInt8>, Value) -> Bool) -> Bool {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return false }
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                repeat {
                    skipSpace()
                    guard take(UInt8(ascii: "\"")), let name = stringBody() else { return false }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipSpace()
                    guard let value = value(), each(UnsafeBufferPointer(rebasing: bytes[name]), value) else { return false }
                    skipSpace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return false }
            }
            skipSpace()
            return at == bytes.count
        }

        private mutating func value() -> Value? {
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "\""):
                at += 1
                return stringBody().map { .string($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        /// The bytes of a string up to its closing quote (consumed); nil at an escape or a control
        /// character (Foundation's decoder handles or refuses those).
        private mutating func stringBody() -> Range<Int>? {
            let start = at
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    at += 1
                    return start..<(at - 1)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                at += 1
            }
            return nil
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        private mutating func number() -> Value? {
            let start = at
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                if digits() > 0 { return nil }  // no leading zeros
            } else if digits() == 0 {
                return nil
            }
            var integer = true
            if take(UInt8(ascii: ".")) {
                integer = false
                guard digits() > 0 else { return nil }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                integer = false
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                guard digits() > 0 else { return nil }
            }
            return .number(start..<at, integer: integer)
        }

        private mutating func digits() -> Int {
            let start = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - start
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard at + count <= bytes.count,
                  UnsafeBufferPointer(rebasing: bytes[at..<(at + count)]).elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
            else { return false }
            at += count
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        private mutating func skipSpace() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x09, 0x0A, 0x0D: at += 1
                default: return
                }
            }
        }
    }
}
