import Foundation
import PartyKit
import MediaTime
import PlayerCore
import StoryKit
import Synchronization
import TandemBase

/// Carries out a party member's player work — seeks that preroll and wait for their instant, clock
/// switches, speed corrections — one at a time and in order, on a task of its own, so that the
/// member's inbound path never waits on media: time pongs, timelines and chat keep reaching the
/// member's state machine while a player opens, prerolls or waits to switch items.
///
/// It is the one owner of the member's ``StoryNavigator`` (and so of its players): it makes it when
/// the first seek comes, replaces it (closing the old one first) when the party's items change, and
/// closes it in ``close()``.
final class MemberPlayback: Sendable {
    /// One piece of player work, as the member's core asked for it.
    enum Work: Sendable {
        /// Show `item` at `position` from local host time `at` (prerolled before it); `ready` is
        /// called once the picture is prerolled, before the instant.
        case show(Show)
        case switchClock(MediaClock)
        case setCorrection(Double)
    }

    struct Show: Sendable {
        var items: [MediaItem]
        var item: Int
        var position: Double
        var at: Double
        var playing: Bool
        var rate: Double
        var epoch: Int
    }

    /// What the member reads synchronously at its ticks.
    struct Snapshot: Sendable {
        var player: Player?
        var item: Int?
        var navigator: StoryNavigator?
        /// Shows submitted and not finished (queued or under way): until they land, `player` may be
        /// the one they replace.
        var pendingShows = 0
        /// Where each item is opened from (after the first show).
        var media: [ResolvedMedia] = []
    }

    struct Options: Sendable {
        /// Where item N is opened: a checked local copy, the party's stream, or its URL.
        var resolve: @Sendable (MediaItem, Int) -> ResolvedMedia
        var playerOptions: @Sendable (Int) -> PlayerOptions
        var timeSource: any TimeSource
        /// A show's picture is prerolled (called before its instant).
        var prepared: @Sendable (_ epoch: Int) async -> Void
        /// Something the user should read ("party.mp4 here is 4.0 s, the party's is 60.0 s: streaming it instead").
        var note: @Sendable (String) -> Void
        /// An item cannot be played here (its error).
        var problem: @Sendable (String) -> Void
        /// Where the shown item plays from ("local copy", "streaming", "url"), or why it cannot play.
        var media: @Sendable (_ source: String?, _ problem: String?) async -> Void
    }

    private let shared: Shared
    private let queue: WorkQueue<Work>
    private let worker: Task<Void, Never>

    private struct State {
        var snapshot = Snapshot()
        /// The speed correction in force, carried over to the next item's player.
        var correction = 0.0
    }

    /// The state the submitting side and the worker task share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        func withLock<R>(_ body: (inout State) -> R) -> R { state.withLock { body(&$0) } }
    }

    init(options: Options) {
        let shared = Shared()
        self.shared = shared
        // A show supersedes the shows and clock switches still queued before it: it sets position,
        // instant, rate and pause itself, so only the newest matters.
        let queue = WorkQueue<Work>(supersedes: { new, queued in new.isShow && (queued.isShow || queued.isClockSwitch) })
        self.queue = queue
        let worker = Worker(options: options, shared: shared)
        self.worker = Task {
            while let work = await queue.next() { await worker.perform(work) }
            await worker.close()
        }
    }

    deinit { queue.finish() }

    /// What the player shows now (never waits).
    var snapshot: Snapshot {
        // Shows first: once none is pending, the player read next is the one the last show set.
        let pendingShows = queue.count(where: \.isShow)
        var snapshot = shared.withLock { $0.snapshot }
        snapshot.pendingShows = pendingShows
        return snapshot
    }

    /// Queues work; returns at once. A show drops the shows and clock switches still queued.
    func submit(_ work: Work) {
        // A clock switch or correction with nothing before it is carried out at once: the player's
        // calls never wait, and there is nothing to keep its order against.
        if !work.isShow, queue.isIdle {
            let player = shared.withLock { state -> Player? in
                if case .setCorrection(let c) = work { state.correction = c }
                return state.snapshot.player
            }
            switch work {
            case .switchClock(let clock): player?.switchClock(to: clock)
            case .setCorrection(let c): player?.setCorrection(c)
            case .show: break
            }
            return
        }
        queue.submit(work)
    }

    /// Finishes the work under way, drops the rest, and closes the players.
    func close() async {
        queue.close()
        await worker.value
    }

    /// The worker's own state: touched only by the worker task, one piece of work at a time.
    private actor Worker {
        let options: Options
        let shared: Shared
        var navigator: StoryNavigator?
        var navigatorItems: [MediaItem] = []
        init(options: Options, shared: Shared) {
            self.options = options
            self.shared = shared
        }

        func perform(_ work: Work) async {
            let state = shared
            switch work {
            case .show(let show):
                await perform(show)
            case .switchClock(let clock):
                state.withLock { $0.snapshot.player }?.switchClock(to: clock)
            case .setCorrection(let c):
                state.withLock { state -> Player? in
                    state.correction = c
                    return state.snapshot.player
                }?.setCorrection(c)
            }
        }

        private func perform(_ show: Show) async {
            let state = shared
            let navigator = await navigator(for: show.items)
            let previous = state.withLock { $0.snapshot.player }
            let prepared = options.prepared
            let epoch = show.epoch
            // Ready is reported when the picture is prerolled, before the instant (another item
            // switches at the instant itself); an item that cannot be opened does not hold the party.
            await navigator.show(show.item, position: show.position, at: show.at, playing: show.playing, rate: show.rate) {
                await prepared(epoch)
            }
            let player = await navigator.currentPlayer
            let item = player == nil ? nil : await navigator.currentIndex
            let correction = state.withLock { $0.correction }
            if let player, correction != 0 { player.setCorrection(correction) }
            state.withLock {
                $0.snapshot.player = player
                $0.snapshot.item = item
            }
            if let player, player !== previous, player.hasVideo, show.items.indices.contains(show.item), show.items[show.item].live != nil {
                checkWindow(of: player, moment: show.position)
            }
            let failure = player == nil ? MemberPlayback.problem(navigator.snapshot.current?.error, item: show.items[safe: show.item]) : nil
            if let failure { options.problem(failure) }
            let media = state.withLock { $0.snapshot.media }
            let source = media.indices.contains(show.item) ? media[show.item].origin.label : nil
            await options.media(failure == nil ? source : nil, failure)
        }

        /// Says so when a newly opened live player's first picture is not the party's moment
        /// (``LiveWindow``); off the worker's task, which does not wait for it.
        private func checkWindow(of player: Player, moment: Double) {
            let note = options.note
            Task {
                guard let first = await LiveWindow.firstPicture(of: player),
                      let line = LiveWindow.note(moment: moment, firstPicture: first) else { return }
                note(line)
            }
        }

        /// The navigator over the party's items, made for the first show and again if the items
        /// change (a restored party): the old one is closed first, so its players are gone before
        /// new ones open.
        private func navigator(for items: [MediaItem]) async -> StoryNavigator {
            let state = shared
            if let navigator, navigatorItems == items { return navigator }
            if let old = navigator {
                state.withLock { $0.snapshot = Snapshot() }
                await old.close()
            }
            // Local copies are checked (probed and sampled) here, on the player's task.
            let resolved = items.enumerated().map { index, item in options.resolve(item, index) }
            for media in resolved { if let note = media.note { options.note(note) } }
            // A streamed item's credential goes with its URL: its player and its poster both open it.
            let stories = zip(items, resolved).map { item, media in
                Story(url: media.url, title: item.title, inputOptions: media.inputOptions, audioFiles: media.audioFiles)
            }
            var storyOptions = StoryNavigator.Options()
            storyOptions.autoAdvance = false
            storyOptions.timeSource = options.timeSource
            let playerOptions = options.playerOptions
            let localCopies = resolved.map { media -> String? in if case .localCopy(let path) = media.origin { path } else { nil } }
            let origins = items.map { $0.live?.origin }
            storyOptions.playerOptions = { index in
                var options = playerOptions(index)
                // A live item's positions are on the stream's time line from the party's origin.
                if origins.indices.contains(index), let origin = origins[index] {
                    options.timeOrigin = origin
                    options.inputOptions.merge(LiveWindow.openOptions) { _, live in live }
                }
                // Subtitles named after a local copy (film.srt beside film.mkv), found as `tandem play` finds them.
                if localCopies.indices.contains(index), let path = localCopies[index], let subtitles = options.subtitles {
                    options.subtitles = Self.adding(filesNextTo: path, to: subtitles)
                }
                return options
            }
            let created = StoryNavigator(stories: stories, options: storyOptions)
            navigator = created
            navigatorItems = items
            state.withLock {
                $0.snapshot.navigator = created
                $0.snapshot.media = resolved
            }
            return created
        }

        /// `subtitles` with the files named after `media` in its folder after the ones it has (each once).
        private static func adding(filesNextTo media: String, to subtitles: SubtitleOptions) -> SubtitleOptions {
            var subtitles = subtitles
            let known = Set(subtitles.externalFiles.map { URL(fileURLWithPath: $0.path).standardizedFileURL.path })
            subtitles.externalFiles += SubtitleOptions.ExternalFile.discovered(nextTo: media).filter {
                !known.contains(URL(fileURLWithPath: $0.path).standardizedFileURL.path)
            }
            return subtitles
        }

        func close() async {
            let state = shared
            await navigator?.close()
            navigator = nil
            state.withLock { $0.snapshot = Snapshot() }
        }
    }
}

extension MemberPlayback {
    /// Why an item could not be opened, for the party: without the item's own URL in front (a video
    /// site's link runs to a kilobyte, and the party keeps 200 characters of a problem), so the
    /// reason itself (`HTTP 403 forbidden`) reaches the others and the host, which asks for a new link.
    static func problem(_ error: String?, item: MediaItem?) -> String {
        guard let error else { return "it could not be opened" }
        for url in [item?.url, item?.audioURL].compactMap({ $0 }) where error.hasPrefix(url + ": ") {
            let reason = error.dropFirst(url.count + 2)
            return url == item?.audioURL ? "its sound: \(reason)" : String(reason)
        }
        return error
    }
}

extension MemberPlayback.Snapshot {
    /// The player as the member's core sees it at a tick (nil while a show is pending: the player
    /// may be the one it replaces): its position, and whether its stream ran dry or has recovered.
    var playerSnapshot: ParticipantCore.PlayerSnapshot? {
        guard pendingShows == 0, let player else { return nil }
        let buffer = player.buffer
        return ParticipantCore.PlayerSnapshot(position: player.position, prerolling: player.isPrerolling, starved: buffer.starved,
                                              readAhead: buffer.streaming ? buffer.readAhead : nil, inputEnded: buffer.inputEnded)
    }
}

extension MemberPlayback.Work {
    var isShow: Bool { if case .show = self { true } else { false } }
    var isClockSwitch: Bool { if case .switchClock = self { true } else { false } }
}
