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
