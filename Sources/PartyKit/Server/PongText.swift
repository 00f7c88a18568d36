/// The wire text of a time pong, written directly: a server answers every member's pings, and this is
/// the one message it makes per message it reads. The same JSON ``PartyProtocol/encode(_:)`` gives
/// (keys in sorted order, numbers in Swift's shortest round-tripping form), without an encoder per message.
extension TimePong {
    public var wireText: String {
        // JSON has no NaN or infinity: such a pong takes the codec's path (which writes them as strings).
        guard t0.isFinite, t1.isFinite, t2.isFinite else { return PartyProtocol.encode(.timePong(self)) }
        return "{\"id\":\(id),\"t0\":\(t0),\"t1\":\(t1),\"t2\":\(t2),\"type\":\"timePong\"}"
    }
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
