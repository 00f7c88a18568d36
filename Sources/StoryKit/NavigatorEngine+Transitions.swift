import FFmpegKit
import PlayerCore

/// The navigator's steps: each runs on the serial task, so one never overlaps another.
extension NavigatorEngine {
    // MARK: Playing

    func play() async {
        if let player = current?.player {
            if player.state == .paused { player.play() }
            return
        }
        guard current == nil, stories.indices.contains(index) else { return }
        preloadPosters(around: index)
        await beginTransition(to: index, announce: false)
        await commitTransition(position: nil, at: nil, announce: false)
        startTicker()
    }

    func previous() async {
        if index == 0 {
            if let player = current?.player { await player.seek(to: 0); player.play() }
        } else {
            await go(to: index - 1)
        }
    }

    /// A tap or a jump: begin and commit at once.
    func go(to target: Int) async {
        guard stories.indices.contains(target), target != current?.index else { return }
        let requested = options.timeSource.now()
        await beginTransition(to: target, announce: true)
        await commitTransition(position: nil, at: nil, announce: true, requestedAt: requested)
        startTicker()
    }

    func begin(to target: Int) async -> Bool {
        guard stories.indices.contains(target) else { return false }
        await beginTransition(to: target, announce: true)
        return true
    }

    func setTransitionProgress(_ fraction: Double) {
        guard neighbour != nil else { return }
        transitionProgress = min(max(fraction, 0), 1)
        publish()
    }

    /// A party's scheduled command: another story is opened and prerolled as the neighbour, the
    /// current one plays on until the instant, and the switch happens then.
    func show(_ order: NavigatorRequest.ShowOrder) async {
        guard stories.indices.contains(order.target) else { return }
        if order.target == current?.index, let player = current?.player {
            await place(player, order)
            await order.prepared()
            return
        }
        await beginTransition(to: order.target, announce: true)
        if let player = neighbour?.player { await place(player, order) }
        await order.prepared()
        let wait = order.hostTime - options.timeSource.now()
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
        await commitTransition(position: nil, at: nil, announce: true, start: false)
    }

    private func place(_ player: Player, _ order: NavigatorRequest.ShowOrder) async {
        player.setRate(order.rate)
        if order.playing {
            await player.schedule(position: order.position, at: order.hostTime)
        } else {
            player.pause()
            await player.seek(to: order.position)
        }
    }

    // MARK: Transitions

    func beginTransition(to target: Int, announce: Bool) async {
        if let existing = neighbour {
            if existing.index == target { return }
            await cancelTransition()
        }
        if announce { hub.emit(.transitionBegan(from: index, to: target)) }
        transitionProgress = 0
        opening = target
        // The poster loaded ahead shows at once; opening the player (over a slow network, seconds)
        // does not hold it up.
        // (The cache may have it before its report reached this task.)
        if let poster = preload.poster(for: target) {
            openingPoster = poster
        } else {
            openingPoster = await posters.cache.cached(target)
        }
        if let poster = openingPoster { hub.emit(.posterShown(index: target, source: poster.source)) }
        publish()
        var slot = await openSlot(target)
        if slot.poster == nil { slot.poster = openingPoster ?? preload.poster(for: target) }
        opening = nil
        openingPoster = nil
        neighbour = slot
        publish()
    }

    /// `start`: false when the player was already scheduled (``show(_:)``).
    /// `requestedAt`: when the tap or jump that opened it was made (the first-frame latency counts from there).
    func commitTransition(position: Double?, at hostTime: Double?, announce: Bool, start: Bool = true,
                          requestedAt: Double? = nil) async {
        guard var incoming = neighbour else { return }
        let outgoing = current
        let now = options.timeSource.now()
        incoming.becameCurrent = requestedAt ?? now
        // Its picture may be out before the job watching it has reported so.
        if let player = incoming.player, !player.isPrerolling { incoming.ready = true }
        neighbour = nil
        current = incoming
        index = incoming.index
        transitionProgress = 0
        if let player = incoming.player, start {
            if let position {
                // Prerolling the position must not hold up the old player's close.
                let at = hostTime ?? now
                spawn { await player.schedule(position: position, at: at) }
            } else if let hostTime {
                player.play(at: hostTime)
            } else {
                player.play()
            }
        }
        publish()
        if announce { hub.emit(.transitionCommitted(from: outgoing?.index ?? incoming.index, to: incoming.index)) }
        hub.emit(.storyStarted(StoryIndicator(index: incoming.index, count: stories.count, progress: 0), title: stories[incoming.index].title))
        if incoming.ready { hub.emit(.firstFrame(index: incoming.index, latency: now - (incoming.becameCurrent ?? now))) }
        await apply(autoAdvance.becameCurrent(slot: incoming.id, index: incoming.index, failed: incoming.error != nil))
        if let poster = incoming.poster, !incoming.ready { hub.emit(.posterShown(index: incoming.index, source: poster.source)) }
        if let outgoing { await retire(outgoing) }
        preloadPosters(around: index)
    }

    func cancelTransition() async {
        guard let slot = neighbour else { return }
        neighbour = nil
        transitionProgress = 0
        publish()
        hub.emit(.transitionCancelled(from: index, to: slot.index))
        await retire(slot)
    }

    /// Closes every player; the index stays.
    func stopAll() async {
        await cancelTransition()
        autoAdvance.stopped()
        if let slot = current {
            current = nil
            publish()
            await retire(slot)
        }
    }

    // MARK: Players

    /// Opens the player of story `target`, counting it alive from before its threads start.
    private func openSlot(_ target: Int) async -> StorySlot {
        let id = makeSlotID()
        census.opening()
        announceCensus()
        let slot: StorySlot
        do throws(OpenError) {
            var playerOptions = options.playerOptions(target)
            playerOptions.inputOptions.merge(stories[target].inputOptions) { _, story in story }
            playerOptions.audioFiles = stories[target].audioFiles
            let player = try await Player.open(stories[target].url, options: playerOptions)
            slot = StorySlot(id: id, index: target, player: player, error: nil)
            watch(player, slot: id)
        } catch {
            census.failedToOpen()
            announceCensus()
            slot = StorySlot(id: id, index: target, player: nil, error: error)
            hub.emit(.storyFailed(index: target, reason: error.description))
        }
        // Loaded ahead or under way: it comes as ``PosterPreload`` reports it. Else a poster only if
        // the story has an image of its own (a keyframe is decoded as slowly as the player's).
        if preload.poster(for: target) == nil, !preload.isLoading(target) { findPoster(target, slot: id) }
        return slot
    }

    /// Closes a slot's player and counts the threads its close left running.
    private func retire(_ slot: StorySlot) async {
        guard let player = slot.player else { return }
        await player.close()
        census.closed(threadsLeft: player.runningThreads)
        announceCensus()
    }
}
