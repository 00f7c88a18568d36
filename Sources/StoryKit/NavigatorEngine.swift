import PlayerCore
import TandemBase

/// The navigator's state and steps, owned by its one serial task: requests are handled one at a
/// time in the order they came, each to its end (its awaits included) before the next starts, so
/// the two-player budget holds whatever callers do, with no lock. Nothing here is shared: the
/// navigator reads what the engine publishes on its ``NavigatorBoard``.
///
/// The transitions (swipes, taps, stop, show) are in `NavigatorEngine+Transitions.swift`.
final class NavigatorEngine {
    /// What an engine is made from, all sendable: the engine itself is built inside its task.
    struct Setup: Sendable {
        var stories: [Story]
        var options: StoryNavigator.Options
        var hub: Broadcaster<StoryEvent>
        var posters: PosterCache
        var board: NavigatorBoard
        /// The navigator's request queue: the engine's jobs report into it.
        var requests: WorkQueue<NavigatorRequest>
    }

    /// Work started alongside the serial task (watching a player, a timer, a poster, a preroll).
    /// A job holds what it needs and reports through the request queue, never the navigator.
    typealias Job = @Sendable () async -> Void

    /// Serves the setup's requests until the queue is finished and drained (the navigator was
    /// closed or released), then closes every player, ends the event streams, cancels the jobs and
    /// waits for them all: when this returns, nothing the navigator started is running.
    static func run(_ setup: Setup) async {
        let (jobs, spawner) = AsyncStream<Job>.makeStream()
        await withDiscardingTaskGroup { group in
            group.addTask {
                let engine = NavigatorEngine(setup, spawner: spawner)
                await engine.serve()
                spawner.finish()
            }
            for await job in jobs { group.addTask(operation: job) }
            group.cancelAll()
        }
    }

    let stories: [Story]
    let options: StoryNavigator.Options
    let hub: Broadcaster<StoryEvent>
    let posters: StoryPosters
    let requests: WorkQueue<NavigatorRequest>
    private let board: NavigatorBoard
    private let spawner: AsyncStream<Job>.Continuation

    /// The current story's index (kept when stopped).
    var index = 0
    var current: StorySlot?
    /// The story a swipe brings in.
    var neighbour: StorySlot?
    /// The story being opened for a swipe, before its slot exists (drawn with its poster when one
    /// was loaded ahead, else as an empty card).
    var opening: Int?
    var openingPoster: Poster?
    /// Posters loaded ahead of swipes.
    var preload: PosterPreload
    var transitionProgress = 0.0
    var census = PlayerCensus()
    var autoAdvance: AutoAdvance
    private var nextSlotID = 0
    private var tickerStarted = false

    private init(_ setup: Setup, spawner: AsyncStream<Job>.Continuation) {
        stories = setup.stories
        options = setup.options
        hub = setup.hub
        posters = StoryPosters(cache: setup.posters, stories: setup.stories)
        requests = setup.requests
        board = setup.board
        self.spawner = spawner
        preload = PosterPreload(count: setup.stories.count)
        autoAdvance = AutoAdvance(isEnabled: setup.options.autoAdvance, failedStoryDwell: setup.options.failedStoryDwell,
                                  count: setup.stories.count)
    }

    private func serve() async {
        while let request = await requests.next() {
            switch request {
            case .operation(let operation, let reply):
                reply.resume(returning: await perform(operation))
            case .report(let report):
                await handle(report)
            }
        }
        await stopAll()
        hub.finish()
    }

    private func perform(_ operation: NavigatorRequest.Operation) async -> Bool {
        switch operation {
        case .play: await play()
        case .pause: if let player = current?.player, player.state == .playing { player.pause() }
        case .stop: await stopAll()
        case .next: await go(to: index + 1)
        case .previous: await previous()
        case .jump(let target): await go(to: target)
        case .begin(let direction): return await begin(to: direction == .forward ? index + 1 : index - 1)
        case .beginTo(let target):
            guard target != current?.index else { return false }
            return await begin(to: target)
        case .progress(let fraction): setTransitionProgress(fraction)
        case .commit(let position, let hostTime): await commitTransition(position: position, at: hostTime, announce: true)
        case .cancel: await cancelTransition()
        case .show(let order): await show(order)
        }
        return true
    }

    // MARK: Reports from the jobs

    private func handle(_ report: NavigatorRequest.Report) async {
        switch report {
        case .ready(let id):
            slotReady(id)
        case .ended(let id):
            guard current?.id == id, current?.player?.state == .ended else { return }
            await apply(autoAdvance.ended(slot: id))
        case .posterMade(let poster, let id):
            posterMade(poster, slot: id)
        case .posterLoaded(let index, let poster):
            posterLoaded(poster, index: index)
        case .advanceDue(let id):
            await apply(autoAdvance.timerFired(slot: id))
        case .tick:
            guard let player = current?.player, player.state == .playing else { return }
            hub.emit(.progress(snapshot().indicator))
        }
    }

    private func slotReady(_ id: Int) {
        if neighbour?.id == id {
            neighbour?.ready = true
        } else if current?.id == id, current?.ready == false, current?.player?.state != .closed {
            current?.ready = true
            let latency = current?.becameCurrent.map { options.timeSource.now() - $0 } ?? 0
            hub.emit(.firstFrame(index: index, latency: max(0, latency)))
        }
        publish()
    }

    private func posterMade(_ poster: Poster, slot id: Int) {
        if current?.id == id, current?.poster == nil {
            current?.poster = poster
            if current?.ready == false { hub.emit(.posterShown(index: index, source: poster.source)) }
        } else if neighbour?.id == id, neighbour?.poster == nil {
            neighbour?.poster = poster
            if neighbour?.ready == false, let n = neighbour { hub.emit(.posterShown(index: n.index, source: poster.source)) }
        }
        publish()
    }

    /// A poster loaded ahead came: it stands in for its story wherever that one waits for a picture.
    private func posterLoaded(_ poster: Poster?, index target: Int) {
        preload.loaded(target, poster)
        guard let poster else { return }
        if opening == target, openingPoster == nil {
            openingPoster = poster
            hub.emit(.posterShown(index: target, source: poster.source))
        }
        if current?.index == target, current?.poster == nil {
            current?.poster = poster
            if current?.ready == false { hub.emit(.posterShown(index: target, source: poster.source)) }
        }
        if neighbour?.index == target, neighbour?.poster == nil {
            neighbour?.poster = poster
            if neighbour?.ready == false { hub.emit(.posterShown(index: target, source: poster.source)) }
        }
        publish()
    }

    /// Starts loading the posters around story `index` that are not loaded yet (``PosterPreload``).
    func preloadPosters(around index: Int) {
        for target in preload.settled(at: index) { loadPoster(target) }
    }

    /// Loads the poster of story `target` beside the serial task (it may cross a slow network).
    func loadPoster(_ target: Int) {
        let (cache, requests) = (posters.cache, requests)
        spawn {
            let poster = try? await cache.poster(for: target).get()
            requests.submit(.report(.posterLoaded(index: target, poster: poster)))
        }
    }

    /// Does what auto-advance decided.
    func apply(_ action: AutoAdvance.Action) async {
        switch action {
        case .none:
            break
        case .startTimer(let seconds, let slot):
            let requests = requests
            spawn {
                guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
                requests.submit(.report(.advanceDue(slot: slot)))
            }
        case .advance(let target):
            await go(to: target)
        case .finish:
            hub.emit(.finished)
        }
    }

    // MARK: Jobs

    /// Starts `job` beside the serial task; it is cancelled and awaited when the navigator closes.
    func spawn(_ job: @escaping Job) { spawner.yield(job) }

    /// Reports when `player` (of slot `id`) has its first picture and when it ends.
    func watch(_ player: Player, slot id: Int) {
        let requests = requests
        spawn {
            await player.waitUntilReady()
            requests.submit(.report(.ready(slot: id)))
        }
        spawn {
            await player.waitUntilEnded()
            requests.submit(.report(.ended(slot: id)))
        }
    }

    /// Reports the poster of story `index` (slot `id`) when one is worth showing.
    func findPoster(_ index: Int, slot id: Int) {
        let (posters, requests) = (posters, requests)
        spawn {
            guard let poster = await posters.standIn(for: index) else { return }
            requests.submit(.report(.posterMade(poster, slot: id)))
        }
    }

    /// `.progress` every ``StoryNavigator/Options/progressInterval`` once something played.
    func startTicker() {
        guard !tickerStarted, let interval = options.progressInterval, interval > 0 else { return }
        tickerStarted = true
        let requests = requests
        spawn {
            while (try? await Task.sleep(for: .seconds(interval))) != nil {
                if requests.submit(.report(.tick)) == nil { return }
            }
        }
    }

    // MARK: Bookkeeping

    func makeSlotID() -> Int {
        defer { nextSlotID += 1 }
        return nextSlotID
    }

    /// Publishes the census and announces the number of live players.
    func announceCensus() {
        publish()
        hub.emit(.livePlayers(census.livePlayers))
    }

    func publish() {
        board.publish(NavigatorStatus(snapshot: snapshot(), index: index, census: census))
    }

    private func snapshot() -> StorySnapshot {
        func card(_ slot: StorySlot?) -> StorySnapshot.Card? {
            slot.map { StorySnapshot.Card(index: $0.index, title: stories[$0.index].title, player: $0.player,
                                          poster: $0.poster, ready: $0.ready, error: $0.error?.description) }
        }
        var neighbourCard = card(neighbour)
        if neighbourCard == nil, let opening {
            neighbourCard = StorySnapshot.Card(index: opening, title: stories[opening].title, player: nil,
                                               poster: openingPoster, ready: false, error: nil)
        }
        return StorySnapshot(count: stories.count, current: card(current), neighbour: neighbourCard,
                             transitionProgress: transitionProgress, livePlayers: census.livePlayers)
    }
}
