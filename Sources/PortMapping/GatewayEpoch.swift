/// A PCP or NAT-PMP gateway's epoch as last heard: its "seconds since my state began", and when (on
/// this machine's clock) that was heard. A later answer whose epoch has not advanced with the time
/// that passed here says the gateway restarted and lost its mappings (RFC 6887 §8.5, RFC 6886 §3.6):
/// the mapping must be asked for again, and it may come back on another port.
public struct GatewayEpoch: Sendable, Equatable {
    /// The gateway's epoch, in its seconds.
    public var server: UInt32
    /// This machine's time when it was heard, in seconds.
    public var client: Double

    public init(server: UInt32, client: Double) {
        self.server = server
        self.client = client
    }

    /// Slack in seconds for the two clocks' rounding and the packets' travel (RFC 6887 §8.5's 2 s).
    static let slack = 2.0
    /// The share of drift between the two clocks tolerated (RFC 6887 §8.5: 1/16 of the elapsed time).
    static let driftShare = 1.0 / 16

    /// Whether `later` (heard after this one) shows the gateway restarted in between: its epoch went
    /// back by more than a second, or the two clocks disagree on the time elapsed by more than the
    /// slack and the drift allow.
    public func restarted(at later: GatewayEpoch) -> Bool {
        if Double(later.server) < Double(server) - 1 { return true }
        let clientDelta = later.client - client
        let serverDelta = Double(later.server) - Double(server)
        return clientDelta + Self.slack < serverDelta - serverDelta * Self.driftShare
            || serverDelta + Self.slack < clientDelta - clientDelta * Self.driftShare
    }
}
