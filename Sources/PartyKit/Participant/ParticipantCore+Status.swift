/// What the member tells the party about itself: where it plays from, and its status (state, skew, round trip).
extension ParticipantCore {
    /// Where the player opened the current item from (`source`), or why it could not (`problem`):
    /// a member that cannot play says so at once, and is not waited for.
    public mutating func mediaReport(source: String?, problem: String?, now: Double) -> [Action] {
        guard source != mediaSource || problem != mediaProblem else { return [] }
        mediaSource = source
        mediaProblem = problem
        guard case .seated(var seat) = phase else { return [] }
        if problem != nil { seat.buffering.reset() }
        phase = .seated(seat)
        return [statusMessage(currentState(seat), seat: seat)]
    }

    /// Its sound output now (nil: none): a status tells the party when it changed notably (another
    /// device, a delay that moved), so the server can lead commands by it and `/who` shows it.
    public mutating func outputReport(_ output: OutputReport?, now: Double) -> [Action] {
        guard output == nil ? soundOutput != nil : output!.differsNotably(from: soundOutput) else { return [] }
        soundOutput = output
        guard case .seated(let seat) = phase else { return [] }
        return [statusMessage(currentState(seat), seat: seat)]
    }

    /// What its status says now, seated on `seat`.
    func currentState(_ seat: Seat) -> Status.State {
        if mediaProblem != nil { return .unavailable }
        if seat.buffering.isActive { return seat.buffering.isBlocking ? .stalled : .syncing }
        if seat.player.isFollowing { return .ready }
        return seat.player.isStalled ? .stalled : .syncing
    }

    /// A status saying `state`, with the figures of the seat it has (or had).
    public func statusMessage(_ state: Status.State) -> Action {
        statusMessage(state, seat: phase.seat)
    }

    func statusMessage(_ state: Status.State, seat: Seat?) -> Action {
        let buffering = seat?.buffering.isActive ?? false
        var status = Status(epoch: seat?.player.appliedEpoch ?? 0, state: state,
                                    skewMs: seat?.lastError.map { $0 * 1000 }.flatMap { $0.isFinite ? $0 : nil },
                                    rttMs: clockSync.estimate.map { $0.minDelay * 1000 },
                                    offsetUncertaintyMs: clockSync.estimate.map { $0.uncertainty * 1000 },
                                    source: mediaSource, problem: state == .unavailable ? mediaProblem : nil,
                                    buffering: buffering && state != .ready && state != .unavailable)
        status.output = soundOutput
        return .send(.status(status))
    }
}
