import MediaTime

/// Following the timeline: the player brought onto each epoch, reconciled against it, held while its stream refills.
extension ParticipantCore {
    /// The player finished prerolling the seek it was given for `epoch`.
    public mutating func seekCompleted(epoch: Int, now: Double) -> [Action] {
        guard awaitingSeek?.epoch == epoch else { return [] }
        awaitingSeek = nil
        everSynced = true
        controller.noteSeek(at: now)
        let wasBuffering = buffering.isActive
        buffering.rejoined()
        if reportedStall || wasBuffering {
            reportedStall = false
            return [statusMessage(.ready)]
        }
        return []
    }

    /// Notices a stream that ran dry (hold the picture, tell the party) and one that recovered
    /// (seek back to where the party is).
    mutating func watchBuffer(now: Double, player: PlayerSnapshot?) -> [Action] {
        guard let timeline, let sync = clockSync.estimate, let player, !player.prerolling, everSynced,
              mediaProblem == nil, awaitingSeek == nil || buffering.isActive else { return [] }
        let event = buffering.update(now: now, epoch: timeline.epoch, playing: timeline.playing, starved: player.starved,
                                     readAhead: player.readAhead, inputEnded: player.inputEnded)
        switch event {
        case .ranDry:
            // The picture holds where it ran dry, so what arrives is kept for when it rejoins.
            let hold = MediaClock(position: player.position, host: now, rate: timeline.rate, paused: true)
            return [.switchClock(hold, epoch: appliedEpoch), statusMessage(currentState)]
        case .recovered:
            reportedStall = buffering.isBlocking
            return reseek(timeline, sync: sync, now: now) + [statusMessage(currentState)]
        case nil:
            return []
        }
    }

    /// Brings the player onto the current epoch once the clock is known.
    mutating func applyTimeline(now: Double) -> [Action] {
        guard let timeline, let sync = clockSync.estimate, !clockSync.isBursting, timeline.epoch > appliedEpoch else { return [] }
        let firstTime = appliedEpoch == 0
        appliedEpoch = timeline.epoch
        let instant = sync.local(fromParty: timeline.partyTime)
        if firstTime || timeline.jump {
            buffering.jumped()
            var at = instant
            var position = timeline.position
            if at < now + Self.seekLead * 0.5 {
                // Too late to preroll for that instant: land a little ahead instead, where the timeline will be.
                at = now + Self.seekLead
                position = timeline.position(at: sync.party(fromLocal: at))
            }
            awaitingSeek = (timeline.epoch, at)
            holdUntil = at
            controller.noteSeek(at: now)
            return [.seek(item: timeline.item, position: max(0, position), at: at, playing: timeline.playing,
                          rate: timeline.rate, epoch: timeline.epoch, catchUp: firstTime)]
        }
        // A player refilling its stream keeps its picture held; it rejoins with a seek when it can.
        if buffering.isActive, awaitingSeek == nil { return [] }
        return [.switchClock(MediaClock(position: timeline.position, host: instant, rate: timeline.rate,
                                        paused: !timeline.playing), epoch: timeline.epoch)]
    }

    mutating func reconcile(now: Double, player: PlayerSnapshot?) -> [Action] {
        guard let timeline, let sync = clockSync.estimate, let player, !player.prerolling,
              awaitingSeek == nil, appliedEpoch == timeline.epoch, now >= holdUntil else { return [] }
        let partyNow = sync.party(fromLocal: now)
        lastPartyNow = partyNow
        let expected = timeline.position(at: partyNow)
        let error = player.position - expected
        lastError = error
        if !timeline.playing {
            // Paused: the picture must be the paused one.
            guard partyNow >= timeline.partyTime, abs(error) > Self.pausedTolerance else { return [] }
            return reseek(timeline, sync: sync, now: now)
        }
        guard partyNow >= timeline.partyTime else { return [] }  // the epoch's instant is still ahead
        switch controller.update(error: error, drift: sync.drift, rate: timeline.rate, now: now) {
        case .reseek:
            return reseek(timeline, sync: sync, now: now)
        case .correct(let c):
            guard abs(c - correction) >= Self.correctionStep else { return [] }
            correction = c
            return [.setCorrection(c)]
        }
    }

    mutating func reseek(_ timeline: Timeline, sync: ClockSync.Estimate, now: Double) -> [Action] {
        let at = now + Self.seekLead
        awaitingSeek = (timeline.epoch, at)
        holdUntil = at
        controller.noteSeek(at: now)
        return [.seek(item: timeline.item, position: max(0, timeline.position(at: sync.party(fromLocal: at))), at: at,
                      playing: timeline.playing, rate: timeline.rate, epoch: timeline.epoch, catchUp: true)]
    }
}
