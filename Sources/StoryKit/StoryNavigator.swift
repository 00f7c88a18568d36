import FFmpegKit
import Foundation
import PlayerCore
import Synchronization

/// Browses a list of videos one at a time, as Instagram and Periscope stories do, with at most two
/// live players: the current one and, during a swipe, the neighbour being brought in.
///
/// A swipe is ``begin(to:)`` (open the neighbour and decode its first frame while the current one
/// plays), ``setTransitionProgress(_:)`` as the finger moves, then ``commit(position:at:)`` (the
/// neighbour plays; the old player is closed at once) or ``cancel()`` (the neighbour is closed).
/// A tap is begin + commit: ``next()``, ``previous()``, ``jump(to:)``.
///
/// Operations run one at a time in the order they are called, so the two-player budget holds
/// whatever the caller does: a new swipe cancels an unfinished one before opening anything.
public actor StoryNavigator {
    public struct Options: Sendable {
        /// Go to the next story when the current one ends (and after a failed one's dwell).
        public var autoAdvance = true
        /// Emit `.progress` this often while a story plays; nil: never.
        public var progressInterval: Double?
        /// How long a story that failed to open shows its poster and error before auto-advance.
        public var failedStoryDwell = 3.0
        public var posterMaxSide = PosterCache.defaultMaxSide
        public var posterCacheLimit = PosterCache.defaultLimit
        /// Options (sinks, time source) of the player for story `index`.
        public var playerOptions: @Sendable (Int) -> PlayerOptions = { _ in PlayerOptions() }
        /// Host time for latencies (the players' time source, in tests a manual one).
        public var timeSource: any TimeSource = MonotonicTimeSource()

        public init() {}
    }

    public enum Direction: Sendable { case forward, backward }

    public nonisolated let stories: [Story]
    /// Posters of the list; the navigator keeps the neighbours' made ahead of time.
    public nonisolated let posters: PosterCache
    private let options: Options
    private let hub = Broadcaster<StoryEvent>()
    private let published: Mutex<StorySnapshot>

    private var index = 0
    private var current: StorySlot?
    private var neighbour: StorySlot?
    /// The story being opened for a swipe, before its slot exists.
    private var opening: Int?
    private var transitionProgress = 0.0
    private var closed = false
    private var nextSlotID = 0
    private var ticker: Task<Void, Never>?
    /// Operations run one at a time: a new one waits for the one under way.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Players alive: opening, open, or closing.
    public private(set) var livePlayers = 0
    /// The most players ever alive at once.
    public private(set) var peakLivePlayers = 0
    /// Pipeline threads still running after their player's close returned (should stay 0).
    public private(set) var leakedThreads = 0

    public init(stories: [Story], options: Options = Options()) {
        self.stories = stories
        self.options = options
        posters = PosterCache(stories: stories, maxSide: options.posterMaxSide, limit: options.posterCacheLimit)
        published = Mutex(.empty(count: stories.count))
    }

    // MARK: Observing

    /// A new stream of the navigator's events (each call gets its own, from now on).
    public nonisolated func events() -> AsyncStream<StoryEvent> { hub.subscribe() }

    /// What to draw now; never waits.
    public nonisolated var snapshot: StorySnapshot { published.withLock { $0 } }

    /// The current story's index.
    public var currentIndex: Int { index }
    public var currentPlayer: Player? { current?.player }
    public var neighbourPlayer: Player? { neighbour?.player }

    /// Players and pipeline threads alive now, and the most players ever alive at once.
    public var census: (players: Int, threads: Int, peakPlayers: Int) {
        let threads = [current, neighbour].compactMap { $0?.player?.runningThreads }.reduce(0, +) + leakedThreads
        return (livePlayers, threads, peakLivePlayers)
    }

    // MARK: Playing

    /// Plays the current story, opening it if nothing is open. Idempotent: playing stays playing.
    public func play() async {
        await acquire()
        defer { release() }
        guard !closed else { return }
        if let player = current?.player {
            if player.state == .paused { player.play() }
            return
        }
        guard current == nil, stories.indices.contains(index) else { return }
        await beginTransition(to: index, announce: false)
        await commitTransition(position: nil, at: nil, announce: false)
        startTicker()
    }

    /// Pauses the current story.
    public func pause() async {
        await acquire()
        defer { release() }
        if let player = current?.player, player.state == .playing { player.pause() }
    }

    /// Closes every player and keeps the index; ``play()`` opens the story again. Idempotent.
    public func stop() async {
        await acquire()
        defer { release() }
        await stopAll()
    }

    /// Stops and ends the event streams.
    public func close() async {
        await acquire()
        defer { release() }
        guard !closed else { return }
        await stopAll()
        closed = true
        ticker?.cancel()
        hub.finish()
    }

    // MARK: Navigating

    /// The next story; nothing at the last one.
    public func next() async {
        await acquire()
        defer { release() }
        await go(to: index + 1)
    }

    /// The previous story; at the first one, the current story again from its start.
    public func previous() async {
        await acquire()
        defer { release() }
        if index == 0 {
            if let player = current?.player { await player.seek(to: 0); player.play() }
        } else {
            await go(to: index - 1)
        }
    }

    /// Story `target` (a tap on the indicator). Nothing when it is current or out of range.
    public func jump(to target: Int) async {
        await acquire()
        defer { release() }
        await go(to: target)
    }

    /// Shows story `target` at `position` from host time `hostTime` (a party's scheduled command).
    /// Another story is opened and prerolled as a neighbour now, the current one plays on until
    /// `hostTime` (on the real-time clock), and the switch happens then. The current story is just
    /// re-positioned. `rate`: the speed to play at. `prepared` is awaited once the picture at
    /// `position` is ready (or the story failed to open), before the instant: a party member reports
    /// its readiness from there.
    public func show(_ target: Int, position: Double, at hostTime: Double, playing: Bool, rate: Double = 1,
                     prepared: @Sendable () async -> Void = {}) async {
        await acquire()
        defer { release() }
        guard stories.indices.contains(target), !closed else { return }
        if target == current?.index, let player = current?.player {
            await place(player, at: position, from: hostTime, playing: playing, rate: rate)
            await prepared()
            return
        }
        await beginTransition(to: target, announce: true)
        if let player = neighbour?.player {
            await place(player, at: position, from: hostTime, playing: playing, rate: rate)
        }
        await prepared()
        let wait = hostTime - options.timeSource.now()
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
        await commitTransition(position: nil, at: nil, announce: true, start: false)
    }

    private func place(_ player: Player, at position: Double, from hostTime: Double, playing: Bool, rate: Double) async {
        player.setRate(rate)
        if playing {
            await player.schedule(position: position, at: hostTime)
        } else {
            player.pause()
            await player.seek(to: position)
        }
    }

    // MARK: Swiping

    /// Starts a swipe toward the neighbour: opens its player (the current one keeps playing).
    /// Returns whether there is a neighbour that way.
    @discardableResult
    public func begin(_ direction: Direction) async -> Bool {
        await acquire()
        defer { release() }
        let target = direction == .forward ? index + 1 : index - 1
        guard stories.indices.contains(target), !closed else { return false }
        await beginTransition(to: target, announce: true)
        return true
    }

    /// Starts a transition to any story (see ``begin(_:)``). False when out of range or current.
    @discardableResult
    public func begin(to target: Int) async -> Bool {
        await acquire()
        defer { release() }
        guard stories.indices.contains(target), target != current?.index, !closed else { return false }
        await beginTransition(to: target, announce: true)
        return true
    }

    /// The finger's progress during a swipe, 0…1 (drawn by the UI; changes no player).
    public func setTransitionProgress(_ fraction: Double) {
        guard neighbour != nil || opening != nil else { return }
        transitionProgress = min(max(fraction, 0), 1)
        publish()
    }

    /// Ends the swipe on the neighbour: it plays (from `position` at `hostTime` when given) and the
    /// old player is closed before this returns. Nothing without a swipe.
    public func commit(position: Double? = nil, at hostTime: Double? = nil) async {
        await acquire()
        defer { release() }
        await commitTransition(position: position, at: hostTime, announce: true)
    }

    /// Ends the swipe where it started: the neighbour is closed.
    public func cancel() async {
        await acquire()
        defer { release() }
        await cancelTransition()
    }

    // MARK: Steps (called inside the gate)

    private func go(to target: Int) async {
        guard stories.indices.contains(target), target != current?.index, !closed else { return }
        let requested = options.timeSource.now()
        await beginTransition(to: target, announce: true)
        await commitTransition(position: nil, at: nil, announce: true, requestedAt: requested)
        startTicker()
    }

    private func beginTransition(to target: Int, announce: Bool) async {
        if let existing = neighbour {
            if existing.index == target { return }
            await cancelTransition()
        }
        if announce { hub.emit(.transitionBegan(from: index, to: target)) }
        transitionProgress = 0
        opening = target
        publish()
        let slot = await openSlot(target)
        opening = nil
        neighbour = slot
        publish()
    }

    /// `start`: false when the player was already scheduled (``show(_:position:at:playing:rate:)``).
    /// `requestedAt`: when the tap or jump that opened it was made (the first-frame latency counts from there).
    private func commitTransition(position: Double?, at hostTime: Double?, announce: Bool, start: Bool = true,
                                  requestedAt: Double? = nil) async {
        guard var incoming = neighbour else { return }
        let outgoing = current
        let now = options.timeSource.now()
        incoming.becameCurrent = requestedAt ?? now
        neighbour = nil
        current = incoming
        index = incoming.index
        transitionProgress = 0
        if let player = incoming.player, start {
            if let position {
                // Prerolling the position must not hold up the old player's close.
                Task { await player.schedule(position: position, at: hostTime ?? now) }
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
        if incoming.error != nil {
            if options.autoAdvance { scheduleAdvance(after: options.failedStoryDwell, slot: incoming.id) }
        }
        if let poster = incoming.poster, !incoming.ready { hub.emit(.posterShown(index: incoming.index, source: poster.source)) }
        if let outgoing { await retire(outgoing) }
        await posters.prefetch([index + 1, index - 1, index + 2])
    }

    private func cancelTransition() async {
        guard let slot = neighbour else { return }
        neighbour = nil
        transitionProgress = 0
        publish()
        hub.emit(.transitionCancelled(from: index, to: slot.index))
        await retire(slot)
    }

    private func stopAll() async {
        await cancelTransition()
        if let slot = current {
            current = nil
            publish()
            await retire(slot)
        }
    }

    /// Opens the player of story `target`, counting it alive from before its threads start.
    private func openSlot(_ target: Int) async -> StorySlot {
        let id = nextSlotID
        nextSlotID += 1
        countLive(+1)
        let slot: StorySlot
        do {
            let player = try await Player.open(stories[target].url, options: options.playerOptions(target))
            slot = StorySlot(id: id, index: target, player: player, error: nil)
            watch(player, slot: id)
        } catch {
            countLive(-1)
            slot = StorySlot(id: id, index: target, player: nil, error: error)
            hub.emit(.storyFailed(index: target, reason: error.description))
        }
        // A poster that is not ready would be made from the same keyframe the player is decoding,
        // as slowly: only a cached one, or the story's own image (cheap), is worth showing.
        let posters = posters
        let hasImage = stories[target].poster != nil
        Task {
            if let poster = await posters.cached(target) {
                self.posterMade(poster, slot: id)
            } else if hasImage, case .success(let poster) = await posters.poster(for: target) {
                self.posterMade(poster, slot: id)
            }
        }
        return slot
    }

    /// Closes a slot's player and checks that its threads are gone.
    private func retire(_ slot: StorySlot) async {
        guard let player = slot.player else { return }
        await player.close()
        leakedThreads += player.runningThreads
        countLive(-1)
    }

    // MARK: Player callbacks

    private func watch(_ player: Player, slot id: Int) {
        Task {
            await player.waitUntilReady()
            self.slotReady(id)
        }
        Task {
            await player.waitUntilEnded()
            self.slotEnded(id)
        }
    }

    private func slotReady(_ id: Int) {
        guard !closed else { return }
        if neighbour?.id == id {
            neighbour?.ready = true
        } else if current?.id == id, current?.ready == false, current?.player?.state != .closed {
            current?.ready = true
            let latency = current?.becameCurrent.map { options.timeSource.now() - $0 } ?? 0
            hub.emit(.firstFrame(index: index, latency: max(0, latency)))
        }
        publish()
    }

    private func slotEnded(_ id: Int) {
        guard current?.id == id, options.autoAdvance, !closed, current?.player?.state == .ended else { return }
        scheduleAdvance(after: 0, slot: id)
    }

    private func posterMade(_ poster: Poster, slot id: Int) {
        if current?.id == id {
            current?.poster = poster
            if current?.ready == false { hub.emit(.posterShown(index: index, source: poster.source)) }
        } else if neighbour?.id == id {
            neighbour?.poster = poster
            if neighbour?.ready == false, let n = neighbour { hub.emit(.posterShown(index: n.index, source: poster.source)) }
        }
        publish()
    }

    /// Auto-advance from slot `id` (if it is still current then): the next story, or `.finished`.
    private func scheduleAdvance(after delay: Double, slot id: Int) {
        Task {
            if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
            await self.advance(from: id)
        }
    }

    private func advance(from id: Int) async {
        await acquire()
        defer { release() }
        guard current?.id == id, !closed else { return }
        if stories.indices.contains(index + 1) {
            await go(to: index + 1)
        } else {
            hub.emit(.finished)
        }
    }

    private func startTicker() {
        guard ticker == nil, let interval = options.progressInterval, interval > 0 else { return }
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                self.tick()
            }
        }
    }

    private func tick() {
        guard !closed, let player = current?.player, player.state == .playing else { return }
        hub.emit(.progress(published.withLock { $0.indicator }))
    }

    // MARK: Bookkeeping

    private func acquire() async {
        guard busy else { busy = true; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next waiting operation (FIFO), or frees the gate.
    private func release() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }

    private func countLive(_ delta: Int) {
        livePlayers += delta
        peakLivePlayers = max(peakLivePlayers, livePlayers)
        publish()
        hub.emit(.livePlayers(livePlayers))
    }

    private func publish() {
        func card(_ slot: StorySlot?) -> StorySnapshot.Card? {
            slot.map { StorySnapshot.Card(index: $0.index, title: stories[$0.index].title, player: $0.player,
                                          poster: $0.poster, ready: $0.ready, error: $0.error?.description) }
        }
        var neighbourCard = card(neighbour)
        if neighbourCard == nil, let opening {
            neighbourCard = StorySnapshot.Card(index: opening, title: stories[opening].title, player: nil,
                                               poster: nil, ready: false, error: nil)
        }
        let snapshot = StorySnapshot(count: stories.count, current: card(current), neighbour: neighbourCard,
                                     transitionProgress: transitionProgress, livePlayers: livePlayers)
        published.withLock { $0 = snapshot }
    }
}
