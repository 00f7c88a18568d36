import FFmpegKit
import Foundation
import PlayerCore
import SyncplayKit
import Synchronization

/// Carries out a Syncplay session's player work — opening the file, seeks that preroll and wait
/// for their instant, starts and stops — one at a time and in order on a task of its own, so that
/// the session's inbound path (pings, states, chat) never waits on media.
///
/// It is the one owner of the player: it opens it, replaces it (closing the old one first) when
/// another file is opened, and closes it in ``close()``.
final class SyncplayPlayback: Sendable {
    enum Work: Sendable {
        case open(String)
        case show(SyncplayShow, generation: Int)
    }

    struct Snapshot: Sendable {
        var player: Player?
        /// Work submitted and not finished.
        var pending = 0
        var generation = 0
        var closed = false
    }

    /// The state the submitting side and the worker task share.
    private final class Shared: Sendable {
        let mutex = Mutex(Snapshot())
        func withLock<R>(_ body: (inout Snapshot) -> R) -> R { mutex.withLock { body(&$0) } }
    }

    private let state = Shared()
    private let queue: AsyncStream<Work>.Continuation
    private let worker: Task<Void, Never>

    /// `opened` is called on the worker after each open: the player, or why it failed.
    init(playerOptions: @escaping @Sendable () -> PlayerOptions, opened: @escaping @Sendable (String, Result<Player, OpenError>) async -> Void) {
        let (work, queue) = AsyncStream.makeStream(of: Work.self)
        self.queue = queue
        let state = state
        worker = Task {
            for await item in work {
                switch item {
                case .open(let path):
                    let old = state.withLock { s -> Player? in
                        defer { s.player = nil }
                        return s.player
                    }
                    await old?.close()
                    do throws(OpenError) {
                        let player = try await Player.open(path, options: playerOptions())
                        let closed = state.withLock { s in
                            if !s.closed { s.player = player }
                            return s.closed
                        }
                        if closed { await player.close() } else { await opened(path, .success(player)) }
                    } catch {
                        await opened(path, .failure(error))
                    }
                case .show(let show, let generation):
                    // A newer show supersedes this one: it sets position, instant and pause itself.
                    let (player, latest) = state.withLock { ($0.player, $0.generation) }
                    if let player, generation == latest { await Self.perform(show, on: player) }
                }
                state.withLock { $0.pending -= 1 }
            }
            let last = state.withLock { s -> Player? in
                defer { s.player = nil }
                return s.player
            }
            await last?.close()
        }
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    func open(_ path: String) { submit(.open(path)) }

    func show(_ show: SyncplayShow) {
        let generation = state.withLock { s -> Int in
            s.generation += 1
            return s.generation
        }
        submit(.show(show, generation: generation))
    }

    /// Applied at once: a correction never waits.
    func setCorrection(_ correction: Double) {
        state.withLock { $0.player }?.setCorrection(correction)
    }

    private func submit(_ work: Work) {
        let accepted = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.pending += 1
            return true
        }
        if accepted { queue.yield(work) }
    }

    /// Finishes the work under way, drops the rest, and closes the player.
    func close() async {
        state.withLock { $0.closed = true }
        queue.finish()
        await worker.value
    }

    private static func perform(_ show: SyncplayShow, on player: Player) async {
        switch (show.seek, show.playing) {
        case (true, true):
            await player.schedule(position: show.position, at: show.at)
        case (true, false):
            player.pause()
            await player.seek(to: show.position)
        case (false, true):
            player.play(at: show.at)
        case (false, false):
            player.pause()
        }
    }
}
