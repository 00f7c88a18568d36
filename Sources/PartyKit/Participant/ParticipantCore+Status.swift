/// What the member tells the party about itself: where it plays from, and its status (state, skew, round trip).
extension ParticipantCore {
    /// Where the player opened the current item from (`source`), or why it could not (`problem`):
    /// a member that cannot play says so at once, and is not waited for.
    public mutating func mediaReport(source: String?, problem: String?, now: Double) -> [Action] {
        guard source != mediaSource || problem != mediaProblem else { return [] }
        mediaSource = source
        mediaProblem = problem
        if problem != nil { buffering.reset() }
        guard isJoined else { return [] }
        return [statusMessage(currentState)]
    }

    /// What its status says now.
    var currentState: Status.State {
        if mediaProblem != nil { return .unavailable }
        if buffering.isActive { return buffering.isBlocking ? .stalled : .syncing }
        if awaitingSeek == nil && everSynced { return .ready }
        return reportedStall ? .stalled : .syncing
    }

    public func statusMessage(_ state: Status.State) -> Action {
        .send(.status(Status(epoch: appliedEpoch, state: state, skewMs: lastError.map { $0 * 1000 }.flatMap { $0.isFinite ? $0 : nil },
                             rttMs: clockSync.estimate.map { $0.minDelay * 1000 },
                             offsetUncertaintyMs: clockSync.estimate.map { $0.uncertainty * 1000 },
                             source: mediaSource, problem: state == .unavailable ? mediaProblem : nil,
                             buffering: buffering.isActive && state != .ready && state != .unavailable)))
    }
}
