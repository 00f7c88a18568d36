import FFmpegKit
import Foundation
import PlayerCore
import SyncplayKit
import Synchronization
import TandemBase

/// Carries out a Syncplay session's player work — opening the file, seeks that preroll and wait
/// for their instant, starts and stops — one at a time and in order on a task of its own, so that
/// the session's inbound path (pings, states, chat) never waits on media.
///
/// It is the one owner of the player: it opens it, replaces it (closing the old one first) when
/// another file is opened, and closes it in ``close()``.
final class SyncplayPlayback: Sendable {
    enum Work: Sendable {
        case open(String)
        case show(SyncplayShow)

        var isShow: Bool { if case .show = self { true } else { false } }
    }

    struct Snapshot: Sendable {
        var player: Player?
        /// Work submitted and not finished (queued or under way).
        var pending = 0
    }

    /// The player, shared by the submitting side and the worker task.
    private final class Current: Sendable {
        let mutex = Mutex<Player?>(nil)
        func withLock<R>(_ body: (inout Player?) -> R) -> R { mutex.withLock { body(&$0) } }
    }

    private let current = Current()
    /// A newer show supersedes the shows still queued: it sets position, instant and pause itself.
    private let queue = WorkQueue<Work>(supersedes: { new, queued in new.isShow && queued.isShow })
    private let worker: Task<Void, Never>

    /// `opened` is called on the worker after each open: the player, or why it failed.
    init(playerOptions: @escaping @Sendable () -> PlayerOptions, opened: @escaping @Sendable (String, Result<Player, OpenError>) async -> Void) {
        let (current, queue) = (current, queue)
        worker = Task {
            while let work = await queue.next() {
                switch work {
                case .open(let path):
                    let old = current.withLock { player -> Player? in
                        defer { player = nil }
                        return player
                    }
                    await old?.close()
                    do throws(OpenError) {
                        let player = try await Player.open(path, options: playerOptions())
                        // Closed meanwhile: nobody takes this player.
                        if queue.isFinished {
                            await player.close()
                        } else {
                            current.withLock { $0 = player }
                            await opened(path, .success(player))
                        }
                    } catch {
                        await opened(path, .failure(error))
                    }
                case .show(let show):
                    if let player = current.withLock({ $0 }) { await Self.perform(show, on: player) }
                }
            }
            let last = current.withLock { player -> Player? in
                defer { player = nil }
                return player
            }
            await last?.close()
        }
    }

    /// Let go without ``close()``, it still closes its player: the worker ends with the queue.
    deinit { queue.finish() }

    var snapshot: Snapshot {
        let pending = queue.count()
        return Snapshot(player: current.withLock { $0 }, pending: pending)
    }

    func open(_ path: String) { queue.submit(.open(path)) }

    func show(_ show: SyncplayShow) { queue.submit(.show(show)) }

    /// Applied at once: a correction never waits.
    func setCorrection(_ correction: Double) {
        current.withLock { $0 }?.setCorrection(correction)
    }

    /// Finishes the work under way, drops the rest, and closes the player.
    func close() async {
        queue.close()
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
