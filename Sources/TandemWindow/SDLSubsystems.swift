import CSDL2
import Synchronization

/// Starts and stops SDL subsystems under one process-wide lock: SDL keeps their reference counts
/// (and the events subsystem that both video and audio start) in plain integers, and a window
/// thread and player threads may start or stop video and sound devices at the same time.
/// Audio devices are opened and closed under it too.
enum SDLSubsystems {
    private static let lock = Mutex(())

    /// `SDL_InitSubSystem`; false (with SDL's error set) when it failed.
    static func start(_ flags: UInt32) -> Bool {
        lock.withLock { _ in SDL_InitSubSystem(flags) == 0 }
    }

    static func stop(_ flags: UInt32) {
        lock.withLock { _ in SDL_QuitSubSystem(flags) }
    }

    /// Runs `body` with no subsystem starting or stopping meanwhile.
    static func serialized<T>(_ body: () -> T) -> T {
        lock.withLock { _ in body() }
    }
}
