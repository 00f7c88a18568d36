import PlayerCore
import Synchronization

/// What SDL's audio callback reaches through its `userdata` pointer (passed unretained: the
/// ``SDLAudioSink`` keeps this alive and closes the device, which waits for a running callback,
/// before letting it go).
///
/// The callback runs on SDL's audio thread and must not block or allocate: it pulls from the
/// source (which never blocks) and scales the floats in place.
final class AudioCallbackContext: @unchecked Sendable {
    /// Written only while the device is locked (`SDL_LockAudioDevice`) or not running: SDL runs the
    /// callback under that same lock, which orders the accesses. Hence `@unchecked Sendable`.
    private var source: (any AudioSource)?
    private var bytesPerFrame = 0
    /// Linear gain as `Float` bits; 0 when muted.
    private let gainBits = Atomic<UInt32>(Float(1).bitPattern)

    /// Call with the device locked or stopped.
    func setSource(_ source: (any AudioSource)?, bytesPerFrame: Int) {
        self.source = source
        self.bytesPerFrame = bytesPerFrame
    }

    func setGain(_ gain: Float) { gainBits.store(gain.bitPattern, ordering: .relaxed) }

    var gain: Float { Float(bitPattern: gainBits.load(ordering: .relaxed)) }

    /// Fills SDL's buffer: samples from the source, then volume and mute.
    func render(into buffer: UnsafeMutableRawBufferPointer) {
        guard let source, bytesPerFrame > 0 else {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        let frames = buffer.count / bytesPerFrame
        _ = source.pull(into: buffer, frames: frames)
        let gain = self.gain
        if gain == 1 { return }
        if gain == 0 {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        let samples = buffer.bindMemory(to: Float.self)
        for i in samples.indices { samples[i] *= gain }
    }
}
