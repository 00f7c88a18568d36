/// The value of an ``IPCProperty`` as exchanged with the application.
public enum IPCValue: Sendable, Hashable {
    /// A flag such as `pause`.
    case bool(Bool)
    /// A number such as `time-pos`, `speed` or `duration`.
    case double(Double)
    /// A position and the monotonic instant it holds for (``IPCProperty/timeSample``).
    case sample(position: Double, at: Double)

    /// The value as the JSON sent to clients (`true`, `12.5`, ...).
    public var json: JSONValue {
        switch self {
        case .bool(let flag): .bool(flag)
        case .double(let number): .number(number)
        case .sample(let position, let at): .object(["time-pos": .number(position), "at": .number(at)])
        }
    }
}
