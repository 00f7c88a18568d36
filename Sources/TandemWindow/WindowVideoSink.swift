import FFmpegKit
import PlayerCore
import Synchronization

/// A ``VideoSink`` for the window: keeps the newest presented picture for the render loop.
///
/// `present` runs on the player's presentation thread. It takes a new reference to the decoded
/// buffers (`av_frame_ref`, no pixel copy: the presenter reuses its own frame once `present`
/// returns), swaps it into a slot under a lock, bumps the generation and wakes the render loop.
/// It never waits for the window's thread: a picture the window has not drawn yet is simply replaced.
public final class WindowVideoSink: VideoSink {
    /// The newest picture, as the render loop takes it.
    public struct Picture: Sendable {
        /// Read-only from here on: the sink never writes into a frame it has handed out.
        public let frame: Frame
        public let position: Double
        /// Increases with every presented picture; equal generations are the same picture.
        public let generation: UInt64
        /// When the sink got it (monotonic host seconds): the window's drawing delay counts from here.
        public let storedAt: Double
    }

    private struct Slot {
        var picture: Picture?
        var generation: UInt64 = 0
        var finished = false
        var wakeup: RenderWakeup?
    }

    private let slot = Mutex(Slot())
    private let clock = MonotonicTimeSource()
    /// ``presentationDelay`` as `Double` bits (written by the window's thread only).
    private let delayBits = Atomic<UInt64>(0)
    private let grid = Mutex<RefreshGrid?>(nil)
    /// Display-matrix rotation of the stream, degrees counter-clockwise (`StreamInfo.rotation`).
    public let rotation: Double

    public init(rotation: Double = 0) {
        self.rotation = rotation
    }

    public func present(_ frame: VideoFrame, hostTime: Double) {
        store(frame.frame.clone(), position: frame.position)
    }

    /// Puts `frame` in the slot as the newest picture (the sink keeps this reference).
    public func store(_ frame: Frame, position: Double) {
        let (previous, wakeup) = slot.withLock { s -> (Picture?, RenderWakeup?) in
            let previous = s.picture
            s.generation &+= 1
            s.picture = Picture(frame: frame, position: position, generation: s.generation, storedAt: clock.now())
            return (previous, s.wakeup)
        }
        // The replaced picture's buffers are released here, outside the lock, unless the window holds it.
        _ = previous
        wakeup?.wake()
    }

    /// How long the window takes from a picture's arrival to showing it (its `SDL_RenderPresent`
    /// returned): waking its thread, uploading, scaling, drawing the overlays. About 5 ms for a 640×360
    /// picture under Xvfb, where lip sync read the flash 5 ms after the click without it. Smoothed.
    public var presentationDelay: Double { Double(bitPattern: delayBits.load(ordering: .relaxed)) }

    /// The display's refreshes, when the window showing this sink's pictures knows them: the presenter
    /// then aims each picture at one (``RefreshGrid``).
    public var refreshGrid: RefreshGrid? { grid.withLock { $0 } }

    /// Set by the window after each present (nil when it shows no grid). Window thread only.
    func setRefreshGrid(_ refreshes: RefreshGrid?) { grid.withLock { $0 = refreshes } }

    /// The window showed `picture`: it called `SDL_RenderPresent` at `presentedAt`, which returned at
    /// `hostTime`. Without a refresh grid the delay counts to the return (the picture is on screen
    /// then); with one, to the call (the wait for the refresh is the presenter's aim, not the
    /// drawing). True when, with a grid, the picture came a refresh or more after the one it was
    /// aimed at (the one before was shown again). Window thread only.
    @discardableResult
    func shown(_ picture: Picture, presentedAt: Double, at hostTime: Double) -> Bool {
        let refreshes = refreshGrid
        let current = presentationDelay
        let sample = (refreshes == nil ? hostTime : presentedAt) - picture.storedAt
        if sample >= 0, sample <= Self.delaySampleLimit {
            let next = current == 0 ? sample : current + Self.delaySmoothing * (sample - current)
            delayBits.store(next.bitPattern, ordering: .relaxed)
        }
        guard let refreshes else { return false }
        // Handed over `current` and a quarter refresh before the refresh it was aimed at.
        let aimed = refreshes.nearest(to: picture.storedAt + current)
        return hostTime - aimed > refreshes.period / 2
    }

    /// How far each drawing moves the estimate: about the last twenty pictures' average, so one slow
    /// picture does not move the next ones.
    static let delaySmoothing = 0.05
    /// A picture shown later than this after it came waited on something else (a hidden window, a busy
    /// event loop): that is not the drawing's delay.
    static let delaySampleLimit = 0.05

    public func finish() {
        let wakeup = slot.withLock { s -> RenderWakeup? in
            s.finished = true
            return s.wakeup
        }
        wakeup?.wake()
    }

    /// Drops the held picture (the window then shows the scene's poster), e.g. when the sink is reused.
    public func clear() {
        let previous = slot.withLock { s -> Picture? in
            defer { s.picture = nil; s.generation &+= 1 }
            return s.picture
        }
        _ = previous
    }

    /// The newest picture, or nil before the first one.
    public func latest() -> Picture? { slot.withLock { $0.picture } }

    /// Generation of the newest picture (0 before any).
    public var generation: UInt64 { slot.withLock { $0.generation } }

    /// The player is closing: no more pictures will come.
    public var isFinished: Bool { slot.withLock { $0.finished } }

    /// Whom to wake when a picture arrives (the window sets this while it shows the sink).
    func attach(_ wakeup: RenderWakeup?) {
        slot.withLock { $0.wakeup = wakeup }
    }
}
