import FFmpegKit
import Foundation
import PlayerCore
import TandemBase

/// Browses a list of videos one at a time, as Instagram and Periscope stories do, with at most two
/// live players: the current one and, during a swipe, the neighbour being brought in.
///
/// A swipe is ``begin(to:)`` (open the neighbour and decode its first frame while the current one
/// plays), ``setTransitionProgress(_:)`` as the finger moves, then ``commit(position:at:)`` (the
/// neighbour plays; the old player is closed at once) or ``cancel()`` (the neighbour is closed).
/// A tap is begin + commit: ``next()``, ``previous()``, ``jump(to:)``.
///
/// Operations run one at a time in the order they are called: each is a request to one serial
/// task, which does it to its end before taking the next. So the two-player budget holds whatever
/// callers do: a new swipe cancels an unfinished one before opening anything. That task and
/// everything it starts (player watchers, the progress ticker, auto-advance timers) hold nothing
/// of the navigator: releasing it, or ``close()``, ends them all.
public final class StoryNavigator: Sendable {
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

    /// Which neighbour a swipe brings in: the next story or the previous one.
    public enum Direction: Sendable { case forward, backward }

    public let stories: [Story]
    /// Posters of the list; the navigator keeps the neighbours' made ahead of time.
    public let posters: PosterCache
    private let hub = Broadcaster<StoryEvent>()
    private let board: NavigatorBoard
    /// Nothing supersedes anything here: each operation's caller awaits its reply, and each report
    /// tells of something that happened.
    private let requests = WorkQueue<NavigatorRequest>()
    /// The serial task; it ends once the requests stop and every player and job is gone.
    private let worker: Task<Void, Never>

    public init(stories: [Story], options: Options = Options()) {
        self.stories = stories
        posters = PosterCache(stories: stories, maxSide: options.posterMaxSide, limit: options.posterCacheLimit)
        board = NavigatorBoard(count: stories.count)
        let setup = NavigatorEngine.Setup(stories: stories, options: options, hub: hub, posters: posters, board: board,
                                          requests: requests)
        worker = Task { await NavigatorEngine.run(setup) }
    }

    /// A navigator let go without ``close()`` still closes its players: its task ends with the requests.
    deinit { requests.finish() }

    // MARK: Observing

    /// A new stream of the navigator's events (each call gets its own, from now on).
    public func events() -> AsyncStream<StoryEvent> { hub.subscribe() }

    /// What to draw now; never waits.
    public var snapshot: StorySnapshot { board.latest.snapshot }

    /// The current story's index. Reads like this one never wait for an operation under way: they
    /// tell what the last step published.
    public var currentIndex: Int { get async { board.latest.index } }
    /// The current story's player (nil when stopped, or when the story failed to open).
    public var currentPlayer: Player? { get async { board.latest.snapshot.current?.player } }
    /// The player a swipe is bringing in, once it is open.
    public var neighbourPlayer: Player? { get async { board.latest.snapshot.neighbour?.player } }

    /// Players and pipeline threads alive now, and the most players ever alive at once.
    public var census: (players: Int, threads: Int, peakPlayers: Int) {
        get async {
            let status = board.latest
            return (status.census.livePlayers, status.threads, status.census.peakLivePlayers)
        }
    }

    /// Players alive: opening, open, or closing.
    public var livePlayers: Int { get async { board.latest.census.livePlayers } }
    /// The most players ever alive at once.
    public var peakLivePlayers: Int { get async { board.latest.census.peakLivePlayers } }
    /// Pipeline threads still running after their player's close returned (should stay 0).
    public var leakedThreads: Int { get async { board.latest.census.leakedThreads } }

    // MARK: Playing

    /// Plays the current story, opening it if nothing is open. Idempotent: playing stays playing.
    public func play() async { await perform(.play) }

    /// Pauses the current story.
    public func pause() async { await perform(.pause) }

    /// Closes every player and keeps the index; ``play()`` opens the story again. Idempotent.
    public func stop() async { await perform(.stop) }

    /// Stops, ends the event streams and waits until every task the navigator started has ended.
    /// Operations asked for later do nothing.
    public func close() async {
        requests.finish()
        await worker.value
    }

    // MARK: Navigating

    /// The next story; nothing at the last one.
    public func next() async { await perform(.next) }

    /// The previous story; at the first one, the current story again from its start.
    public func previous() async { await perform(.previous) }

    /// Story `target` (a tap on the indicator). Nothing when it is current or out of range.
    public func jump(to target: Int) async { await perform(.jump(target)) }

    /// Shows story `target` at `position` from host time `hostTime` (a party's scheduled command).
    /// Another story is opened and prerolled as a neighbour now, the current one plays on until
    /// `hostTime` (on the real-time clock), and the switch happens then. The current story is just
    /// re-positioned. `rate`: the speed to play at. `prepared` is awaited once the picture at
    /// `position` is ready (or the story failed to open), before the instant: a party member reports
    /// its readiness from there. It runs on the navigator's serial task: it must not wait for
    /// another operation of this navigator.
    public func show(_ target: Int, position: Double, at hostTime: Double, playing: Bool, rate: Double = 1,
                     prepared: @escaping @Sendable () async -> Void = {}) async {
        let order = NavigatorRequest.ShowOrder(target: target, position: position, hostTime: hostTime, playing: playing,
                                               rate: rate, prepared: prepared)
        await perform(.show(order))
    }

    // MARK: Swiping

    /// Starts a swipe toward the neighbour: opens its player (the current one keeps playing).
    /// Returns whether there is a neighbour that way.
    @discardableResult
    public func begin(_ direction: Direction) async -> Bool { await perform(.begin(direction)) }

    /// Starts a transition to any story (see ``begin(_:)``). False when out of range or current.
    @discardableResult
    public func begin(to target: Int) async -> Bool { await perform(.beginTo(target)) }

    /// The finger's progress during a swipe, 0…1 (drawn by the UI; changes no player).
    public func setTransitionProgress(_ fraction: Double) async { await perform(.progress(fraction)) }

    /// Ends the swipe on the neighbour: it plays (from `position` at `hostTime` when given) and the
    /// old player is closed before this returns. Nothing without a swipe.
    public func commit(position: Double? = nil, at hostTime: Double? = nil) async {
        await perform(.commit(position: position, at: hostTime))
    }

    /// Ends the swipe where it started: the neighbour is closed.
    public func cancel() async { await perform(.cancel) }

    /// Hands `operation` to the serial task and waits until it is done; false at once after close.
    @discardableResult
    private func perform(_ operation: NavigatorRequest.Operation) async -> Bool {
        await withCheckedContinuation { reply in
            if requests.submit(.operation(operation, reply: reply)) == nil {
                reply.resume(returning: false)
            }
        }
    }
}
