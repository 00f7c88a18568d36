import MPVIPC
import PlayerCore
import Synchronization
import TandemBase

/// mpv IPC for a whole run of `tandem play`: one socket for every file of the playlist, answering
/// for the file playing (between files, properties are unavailable and commands refused).
/// `quit` and playlist moves are recorded in ``SessionRequests`` and close the file playing.
package final class SessionIPCTarget: IPCTarget {
    private let current = Mutex<Player?>(nil)
    package let requests: SessionRequests

    package init(requests: SessionRequests) { self.requests = requests }

    /// The file now playing, or nil between files.
    package func attach(_ player: Player?) { current.withLock { $0 = player } }

    private var player: Player? { current.withLock { $0 } }

    /// The single-file target for the file playing.
    private func target() throws(IPCRefusal) -> PlayerIPCTarget {
        guard let player else { throw IPCRefusal("no file is playing") }
        return PlayerIPCTarget(player: player, onQuit: {})
    }

    package func property(_ property: IPCProperty) async -> IPCValue? {
        guard let target = try? target() else { return nil }
        return await target.property(property)
    }

    package func setPause(_ paused: Bool) async throws(IPCRefusal) { try await target().setPause(paused) }
    package func setSpeed(_ speed: Double) async throws(IPCRefusal) { try await target().setSpeed(speed) }
    package func seek(to seconds: Double) async throws(IPCRefusal) { try await target().seek(to: seconds) }

    package func playlistStep(_ step: Int) async throws(IPCRefusal) {
        guard requests.requestStep(step) else { throw .noPlaylistItem }
        await player?.close()
    }

    package func quit() async {
        requests.requestQuit()
        await player?.close()
    }

    package func propertyChanges() -> AsyncStream<IPCPropertyChange> {
        PropertyPoller.changes { [self] in PropertyPoller.Reading(self.player.map { PlayerReading($0) }) }
    }
}

/// What mpv IPC clients asked of the session while a file plays (set from the server's tasks,
/// read by the session after the file): `quit`, or a playlist move the playlist allows.
package final class SessionRequests: Sendable {
    private struct State {
        package var quit = false
        /// The signal that asked for the quit (SIGINT, SIGTERM), if one did.
        package var signal: Int32?
        package var step: Int?
        /// Whether `playlist-next` / `playlist-prev` have an item to go to (from ``Playlist``).
        package var canStep = (next: false, previous: false)
    }
    /// ``waitForQuit()`` waits on it.
    private let state = Awaitable(State())

    /// A quit (IPC's `quit`), or one asked for by `signal`.
    package func requestQuit(signal: Int32? = nil) {
        state.withLock { s in
            s.quit = true
            if s.signal == nil { s.signal = signal }
        }
    }

    package var quitRequested: Bool { state.withLock { $0.quit } }
    /// The signal that asked for the quit, if one did.
    package var quitSignal: Int32? { state.withLock { $0.signal } }

    /// Returns once a quit is asked for (at once if it was already), or when the task is cancelled.
    package func waitForQuit() async {
        _ = try? await state.wait(until: { $0.quit })
    }

    /// Records the move when the playlist has an item that way; returns whether it does.
    package func requestStep(_ step: Int) -> Bool {
        state.withLock { s in
            guard step > 0 ? s.canStep.next : s.canStep.previous else { return false }
            s.step = step
            return true
        }
    }

    /// Before a file plays: which moves are possible, and none asked for yet.
    package func reset(canStep: (next: Bool, previous: Bool)) { state.withLock { $0.canStep = canStep; $0.step = nil } }

    /// The move asked for while the file played, if any.
    package func takeStep() -> Int? { state.withLock { s in defer { s.step = nil }; return s.step } }
}
