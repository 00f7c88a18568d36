import Foundation

/// The global actor of everything that touches SDL's video side: the window, its textures and
/// overlays, and window controllers.
///
/// On Linux it runs on its own dedicated thread (SDL wants one thread for video, events and GL
/// contexts, and Linux's main actor is not bound to one thread; see ``WindowThreadExecutor``);
/// on Darwin, where the main actor is the main thread and Cocoa requires it, it is the main actor's
/// executor.
@globalActor
public actor WindowActor {
    public static let shared = WindowActor()

    #if canImport(Darwin)
    public nonisolated var unownedExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }
    #else
    static let executor = WindowThreadExecutor(name: "tandem.window")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }
    #endif

    /// True on the thread that runs this actor's code (where SDL's video calls must be made).
    public static var isCurrentThread: Bool {
        #if canImport(Darwin)
        Thread.isMainThread
        #else
        executor.isCurrent
        #endif
    }
}
