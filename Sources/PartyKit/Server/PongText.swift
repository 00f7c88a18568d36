/// The wire text of a time pong (``HotMessageEncoder``, without an encoder per message): a server
/// answers every member's pings, and this is the one message it makes per message it reads.
extension TimePong {
    public var wireText: String { PartyProtocol.encode(.timePong(self)) }
}

extension TimePong {
    /// The end of a time ping as ``PartyProtocol/encode(_:)`` writes it (keys sorted, `type` last): the
    /// cheap test that picks the pings ``answer(toPing:receivedAt:now:)`` decodes out of all messages.
    static let pingEnding = Array("\"type\":\"timePing\"}".utf8)

    /// The wire text of the pong that answers `text` if it is a time ping (else nil): what
    /// ``PartyServerCore`` answers a joined member's ping with, made without it, so that a server can
    /// answer pings where it reads them. `receivedAt`: when the ping was read (t1); `now`: t2.
    /// Only pings as members write them are taken (any other spelling gives nil, and goes the usual way).
    public static func answer(toPing text: String, receivedAt: Double, now: Double) -> String? {
        let utf8 = text.utf8
        guard utf8.count > pingEnding.count, utf8.suffix(pingEnding.count).elementsEqual(pingEnding),
              case .timePing(let ping)? = HotMessageDecoder.decode(text) else { return nil }
        return TimePong(id: ping.id, t0: ping.t0, t1: min(receivedAt, now), t2: now).wireText
    }
}
