/// Writes the messages sent most — a member's time pings and statuses, a server's time pongs — without
/// Foundation's encoder (an encoder, a `Data` and a dictionary of keys per message): the same JSON
/// ``PartyProtocol/encode(_:)`` writes, keys in sorted order, `type` last, numbers in Swift's shortest
/// round-tripping form. A member sends several a second; a load client or a server, thousands.
///
/// Only what it can write exactly is taken: a non-finite number (the codec writes those as strings) or
/// a string that would need escaping gives `nil`, and the codec writes the message.
enum HotMessageEncoder {
    /// The message's wire text, or nil when Foundation's encoder must write it.
    static func encode(_ message: PartyMessage) -> String? {
        switch message {
        case .timePing(let ping):
            guard ping.t0.isFinite else { return nil }
            return "{\"id\":\(ping.id),\"t0\":\(jsonNumber(ping.t0)),\"type\":\"timePing\"}"
        case .timePong(let pong):
            guard pong.t0.isFinite, pong.t1.isFinite, pong.t2.isFinite else { return nil }
            return "{\"id\":\(pong.id),\"t0\":\(jsonNumber(pong.t0)),\"t1\":\(jsonNumber(pong.t1)),\"t2\":\(jsonNumber(pong.t2)),\"type\":\"timePong\"}"
        case .status(let status):
            return encode(status)
        default:
            return nil
        }
    }

    /// A status: absent optionals are left out, as the synthesized encoder does.
    private static func encode(_ status: Status) -> String? {
        // A nested object (the sound output, sent when it changes): the codec writes it.
        guard status.output == nil else { return nil }
        var text = "{"
        func field(_ name: String, _ value: String) {
            if text.utf8.count > 1 { text += "," }
            text += "\"\(name)\":\(value)"
        }
        func number(_ name: String, _ value: Double?) -> Bool {
            guard let value else { return true }
            guard value.isFinite else { return false }
            field(name, jsonNumber(value))
            return true
        }
        func string(_ name: String, _ value: String?) -> Bool {
            guard let value else { return true }
            guard value.utf8.allSatisfy(isPlain) else { return false }
            field(name, "\"\(value)\"")
            return true
        }
        if let buffering = status.buffering { field("buffering", buffering ? "true" : "false") }
        field("epoch", "\(status.epoch)")
        guard number("offsetUncertaintyMs", status.offsetUncertaintyMs), string("problem", status.problem),
              number("rttMs", status.rttMs), number("skewMs", status.skewMs), string("source", status.source) else {
            return nil
        }
        field("state", "\"\(status.state.rawValue)\"")
        field("type", "\"status\"")
        return text + "}"
    }

    /// A finite number as the codec writes it: Swift's shortest round-tripping form, without the ".0"
    /// of a whole number (`3`, `2.5`, `1e-07`).
    private static func jsonNumber(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A byte written as itself inside a JSON string by Foundation's encoder: not a quote, a backslash,
    /// a slash (which it escapes) or a control character. Other UTF-8 bytes (non-ASCII text) are written as they are.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "/")
    }
}
