/// The value of an ``IPCProperty`` as exchanged with the application.
public enum IPCValue: Sendable, Hashable {
    /// A flag such as `pause`.
    case bool(Bool)
    /// A number such as `time-pos`, `speed` or `duration`.
    case double(Double)
    /// A position, whether playback is paused, and the monotonic instant both hold for
    /// (``IPCProperty/timeSample``).
    case sample(position: Double, paused: Bool, at: Double)

    /// The value as the JSON sent to clients (`true`, `12.5`, ...).
    public var json: JSONValue {
        switch self {
        case .bool(let flag): .bool(flag)
        case .double(let number): .number(number)
        case .sample(let position, let paused, let at):
            .object(["time-pos": .number(position), "pause": .bool(paused), "at": .number(at)])
        }
    }
}
