/// What a member's player is doing, for everyone's participant list.
public struct Presence: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable {
        /// Measuring the clock or prerolling: not yet following the timeline.
        case syncing
        /// Following the timeline.
        case watching
        /// Behind the timeline: waiting for its player (a missed instant, a stream that ran dry).
        case stalled
        /// Cannot play the current item at all (`problem` says why); never counted as watching.
        case unavailable
    }

    public var state: State
    /// Where its media comes from: "local copy", "streaming", "url".
    public var source: String?
    /// Why it cannot play, for `unavailable`.
    public var problem: String?
    /// Its stream ran dry and it is refilling its read-ahead (with `stalled` or `syncing`); absent
    /// otherwise. A field rather than a state, so v2 peers that do not know it still decode the list.
    public var buffering: Bool?
    /// Its sound output, as it last reported it (protocol 6).
    public var output: OutputReport?
    public init(state: State, source: String? = nil, problem: String? = nil, buffering: Bool? = nil,
                output: OutputReport? = nil) {
        self.output = output
        self.state = state
        self.source = source
        self.problem = problem
        self.buffering = buffering == true && state != .watching && state != .unavailable ? true : nil
    }

    /// Whether it is buffering (what people see instead of "stalled" or "syncing").
    public var isBuffering: Bool { buffering == true }

    /// The state's name for people and event lines: "buffering" for a member refilling its stream.
    public var stateName: String { isBuffering ? "buffering" : state.rawValue }

    /// "watching (streaming)", "can't play item 2: no such file" (items counted from 1 for people).
    public func text(item: Int?) -> String {
        if isBuffering { return "buffering" }
        return switch state {
        case .syncing: "syncing"
        case .watching: source.map { "watching (\($0))" } ?? "watching"
        case .stalled: "stalled"
        case .unavailable: "can't play\(item.map { " item \($0 + 1)" } ?? ""): \(problem ?? "unknown reason")"
        }
    }
}
