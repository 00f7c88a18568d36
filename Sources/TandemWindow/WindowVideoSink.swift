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
    }

    private struct Slot {
        var picture: Picture?
        var generation: UInt64 = 0
        var finished = false
        var wakeup: RenderWakeup?
    }

    private let slot = Mutex(Slot())
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
            s.picture = Picture(frame: frame, position: position, generation: s.generation)
            return (previous, s.wakeup)
        }
        // The replaced picture's buffers are released here, outside the lock, unless the window holds it.
        _ = previous
        wakeup?.wake()
    }

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
