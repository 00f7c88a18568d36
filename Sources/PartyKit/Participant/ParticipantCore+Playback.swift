import MediaTime

/// Following the timeline: the player brought onto each epoch, reconciled against it, held while its stream refills.
extension ParticipantCore {
    /// The player finished prerolling the seek it was given for `epoch`.
    public mutating func seekCompleted(epoch: Int, now: Double) -> [Action] {
        guard case .seated(var seat) = phase, let stalled = seat.player.complete(epoch: epoch) else { return [] }
        defer { phase = .seated(seat) }
        controller.noteSeek(at: now)
        let wasBuffering = seat.buffering.isActive
        seat.buffering.rejoined()
        return stalled || wasBuffering ? [statusMessage(.ready, seat: seat)] : []
    }

    /// Notices a stream that ran dry (hold the picture, tell the party) and one that recovered
    /// (seek back to where the party is). Watched while following, and while the rejoin's seek prerolls.
    mutating func watchBuffer(_ seat: inout Seat, now: Double, player: PlayerSnapshot?) -> [Action] {
        switch seat.player {
        case .following: break
        case .seeking where seat.buffering.isActive: break
        case .measuring, .joining, .seeking: return []
        }
        let timeline = seat.timeline
        guard let sync = clockSync.estimate, let player, !player.prerolling, mediaProblem == nil else { return [] }
        let event = seat.buffering.update(now: now, epoch: timeline.epoch, playing: timeline.playing, starved: player.starved,
                                          readAhead: player.readAhead, inputEnded: player.inputEnded)
        switch event {
        case .ranDry:
            // The picture holds where it ran dry, so what arrives is kept for when it rejoins.
            let hold = MediaClock(position: player.position, host: now, rate: timeline.rate, paused: true)
            return [.switchClock(hold, epoch: seat.player.appliedEpoch), statusMessage(currentState(seat), seat: seat)]
        case .recovered:
            let seek = reseek(&seat, sync: sync, now: now, stalled: seat.buffering.isBlocking)
            return seek + [statusMessage(currentState(seat), seat: seat)]
        case nil:
            return []
        }
    }

    /// Brings the player onto the seat's timeline epoch once the clock is known: the first epoch
    /// and jumps with a seek, the rest with a clock switch.
    mutating func applyTimeline(_ seat: inout Seat, now: Double) -> [Action] {
        let timeline = seat.timeline
        guard let sync = clockSync.estimate, !clockSync.isBursting, timeline.epoch > seat.player.appliedEpoch else { return [] }
        let firstTime = seat.player.appliedEpoch == 0
        let instant = sync.local(fromParty: timeline.partyTime)
        if firstTime || timeline.jump {
            seat.buffering.jumped()
            var at = instant
            var position = timeline.position
            if at < now + Self.seekLead * 0.5 {
                // Too late to preroll for that instant: land a little ahead instead, where the timeline will be.
                at = now + Self.seekLead
                position = timeline.position(at: sync.party(fromLocal: at))
            }
            seat.player.begin(PendingSeek(epoch: timeline.epoch, at: at, applied: timeline.epoch))
            controller.noteSeek(at: now)
            return [.seek(item: timeline.item, position: max(0, position), at: at, playing: timeline.playing,
                          rate: timeline.rate, epoch: timeline.epoch, catchUp: firstTime)]
        }
        seat.player.follow(epoch: timeline.epoch)
        // A player refilling its stream keeps its picture held; it rejoins with a seek when it can.
        if seat.buffering.isActive, seat.player.pendingSeek == nil { return [] }
        return [.switchClock(MediaClock(position: timeline.position, host: instant, rate: timeline.rate,
                                        paused: !timeline.playing), epoch: timeline.epoch)]
    }

    /// Compares a following player with the timeline: nudges its rate, or re-seeks it.
    mutating func reconcile(_ seat: inout Seat, now: Double, player: PlayerSnapshot?) -> [Action] {
        let timeline = seat.timeline
        guard case .following(let applied, let holdUntil) = seat.player, applied == timeline.epoch, now >= holdUntil,
              let sync = clockSync.estimate, let player, !player.prerolling else { return [] }
        let partyNow = sync.party(fromLocal: now)
        seat.lastPartyNow = partyNow
        // The epoch's instant is still ahead: the player rightly follows the timeline before it (a pause
        // 100 ms ahead would read it 100 ms short of the paused position), so there is no error to act on
        // or to tell.
        guard partyNow >= timeline.partyTime else { return [] }
        let error = player.position - timeline.position(at: partyNow)
        seat.lastError = error
        if !timeline.playing {
            // Paused: the picture must be the paused one.
            guard abs(error) > Self.pausedTolerance else { return [] }
            return reseek(&seat, sync: sync, now: now)
        }
        switch controller.update(error: error, drift: sync.drift, rate: timeline.rate, now: now) {
        case .reseek:
            return reseek(&seat, sync: sync, now: now)
        case .correct(let c):
            guard abs(c - seat.correction) >= Self.correctionStep else { return [] }
            seat.correction = c
            return [.setCorrection(c)]
        }
    }

    /// Seeks to where the timeline will be a ``seekLead`` from now. `stalled`: whether the party is
    /// told this member is late (nil: as it was).
    mutating func reseek(_ seat: inout Seat, sync: ClockSync.Estimate, now: Double, stalled: Bool? = nil) -> [Action] {
        let timeline = seat.timeline
        let at = now + Self.seekLead
        seat.player.begin(PendingSeek(epoch: timeline.epoch, at: at, applied: seat.player.appliedEpoch), stalled: stalled)
        controller.noteSeek(at: now)
        return [.seek(item: timeline.item, position: max(0, timeline.position(at: sync.party(fromLocal: at))), at: at,
                      playing: timeline.playing, rate: timeline.rate, epoch: timeline.epoch, catchUp: true)]
    }
}
