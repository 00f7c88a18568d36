extension Presence {
    /// What a status says of its sender, for the others' lists.
    init(_ status: Status) {
        let state: State = switch status.state {
        case .syncing: .syncing
        case .ready: .watching
        case .stalled: .stalled
        case .unavailable: .unavailable
        }
        self.init(state: state, source: status.source, problem: state == .unavailable ? status.problem : nil,
                  buffering: status.buffering, output: status.output)
    }
}
