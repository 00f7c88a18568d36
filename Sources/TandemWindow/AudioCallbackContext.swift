import PlayerCore
import Synchronization

/// What SDL's audio callback reaches through its `userdata` pointer (passed unretained: the
/// ``SDLAudioSink`` keeps this alive and closes the device, which waits for a running callback,
/// before letting it go).
///
/// The callback runs on SDL's audio thread and must not block or allocate: it pulls from the
/// source (which never blocks) and scales the floats in place.
final class AudioCallbackContext: @unchecked Sendable {
    /// Scratch for mixing a second source: larger than any buffer SDL asks for at our sizes.
    static let scratchBytes = 1 << 17

    private struct Input {
        var id: Int
        var source: any AudioSource
        var bytesPerFrame: Int
    }

    /// Written only while the device is locked (`SDL_LockAudioDevice`) or not running: SDL runs the
    /// callback under that same lock, which orders the accesses. Hence `@unchecked Sendable`.
    private var inputs: [Input] = []
    private var scratch: UnsafeMutableRawBufferPointer?
    /// Linear gain as `Float` bits; 0 when muted.
    private let gainBits = Atomic<UInt32>(Float(1).bitPattern)

    deinit { scratch?.deallocate() }

    /// The one source of a sink (nil: none). Call with the device locked or stopped.
    func setSource(_ source: (any AudioSource)?, bytesPerFrame: Int) {
        inputs = source.map { [Input(id: 0, source: $0, bytesPerFrame: bytesPerFrame)] } ?? []
    }

    /// Adds a source to the mix (a story's neighbour, a party's next item), replacing one of the
    /// same id. Call with the device locked or stopped: this is where memory is allocated.
    func addSource(id: Int, _ source: any AudioSource, bytesPerFrame: Int) {
        inputs.removeAll { $0.id == id }
        inputs.append(Input(id: id, source: source, bytesPerFrame: bytesPerFrame))
        if inputs.count > 1, scratch == nil {
            scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.scratchBytes, alignment: 16)
        }
    }

    /// Call with the device locked or stopped; once it returns, the source is not pulled again.
    func removeSource(id: Int) { inputs.removeAll { $0.id == id } }

    var isEmpty: Bool { inputs.isEmpty }

    func setGain(_ gain: Float) { gainBits.store(gain.bitPattern, ordering: .relaxed) }

    var gain: Float { Float(bitPattern: gainBits.load(ordering: .relaxed)) }

    /// Fills SDL's buffer: the sources' samples summed, then volume and mute. Pulls never block;
    /// nothing here allocates.
    func render(into buffer: UnsafeMutableRawBufferPointer) {
        guard let first = inputs.first, first.bytesPerFrame > 0 else {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        _ = first.source.pull(into: buffer, frames: buffer.count / first.bytesPerFrame)
        let samples = buffer.bindMemory(to: Float.self)
        if inputs.count > 1, let scratch, buffer.count <= scratch.count {
            let mix = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<buffer.count])
            for input in inputs.dropFirst() where input.bytesPerFrame == first.bytesPerFrame {
                _ = input.source.pull(into: mix, frames: buffer.count / input.bytesPerFrame)
                let other = mix.bindMemory(to: Float.self)
                for i in samples.indices { samples[i] += other[i] }
            }
        }
        let gain = self.gain
        if gain == 1 { return }
        if gain == 0 {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        for i in samples.indices { samples[i] *= gain }
    }
}
