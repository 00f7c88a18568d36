import PlayerCore
import Synchronization

/// What a sound device's real-time thread pulls from: the players attached to the device (a story's
/// neighbour or a party's next item may play beside the current one), summed, then volume and mute.
///
/// The device calls ``render(into:heardIn:)`` on its own thread, which must not allocate: it pulls
/// from the sources (which never block) and scales the floats in place, under the mixer's lock,
/// which attaching and detaching take only briefly (as SDL's device lock is held around its
/// callback). Once ``removeSource(id:)`` returns, that source is not pulled again. While a device is
/// away, a pacing thread stands in for it and pulls the mixer as an ``AudioSource``
/// (``NullAudioSink``), so the players go on without sound.
public final class SoundMixer: AudioSource, Sendable {
    /// Scratch for mixing a second source: larger than any buffer a device asks for at our sizes.
    static let scratchBytes = 1 << 17

    private struct Input {
        var id: Int
        var source: any AudioSource
        var bytesPerFrame: Int
    }

    private struct State: @unchecked Sendable {
        var inputs: [Input] = []
        /// Owned by the mixer, touched only under its lock.
        var scratch: UnsafeMutableRawBufferPointer?
    }

    private let state = Mutex(State())
    /// Linear gain as `Float` bits; 0 when muted.
    private let gainBits = Atomic<UInt32>(Float(1).bitPattern)

    public init() {}

    deinit { state.withLock { $0.scratch?.deallocate() } }

    /// The one source of a sink (nil: none).
    public func setSource(_ source: (any AudioSource)?, bytesPerFrame: Int) {
        state.withLock { $0.inputs = source.map { [Input(id: 0, source: $0, bytesPerFrame: bytesPerFrame)] } ?? [] }
    }

    /// Adds a source to the mix, replacing one of the same id (this is where memory is allocated).
    public func addSource(id: Int, _ source: any AudioSource, bytesPerFrame: Int) {
        state.withLock { s in
            s.inputs.removeAll { $0.id == id }
            s.inputs.append(Input(id: id, source: source, bytesPerFrame: bytesPerFrame))
            if s.inputs.count > 1, s.scratch == nil {
                s.scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.scratchBytes, alignment: 16)
            }
        }
    }

    /// Once it returns, the source is not pulled again.
    public func removeSource(id: Int) { state.withLock { $0.inputs.removeAll { $0.id == id } } }

    public var isEmpty: Bool { state.withLock { $0.inputs.isEmpty } }

    /// Bytes per frame of the first source (0: none).
    var bytesPerFrame: Int { state.withLock { $0.inputs.first?.bytesPerFrame ?? 0 } }

    public func setGain(_ gain: Float) { gainBits.store(gain.bitPattern, ordering: .relaxed) }

    public var gain: Float { Float(bitPattern: gainBits.load(ordering: .relaxed)) }

    /// The device's volume (0…100 %) and mute, which set the gain.
    private let levels = Mutex((volume: 100, muted: false))

    public var volume: Int { levels.withLock { $0.volume } }
    public var muted: Bool { levels.withLock { $0.muted } }

    /// Volume (clamped to 0…100 %) and mute; nil keeps what is set.
    public func setLevels(volume: Int? = nil, muted: Bool? = nil) {
        let gain = levels.withLock { l in
            if let volume { l.volume = min(max(volume, 0), 100) }
            if let muted { l.muted = muted }
            return Self.gain(volume: l.volume, muted: l.muted)
        }
        setGain(gain)
    }

    /// The linear gain for a volume in percent: cubic, as mpv maps its volume (gain = (v/100)³: equal
    /// steps sound roughly equal); 0 when muted.
    public static func gain(volume: Int, muted: Bool) -> Float {
        guard !muted else { return 0 }
        let v = Float(min(max(volume, 0), 100)) / 100
        return v * v * v
    }

    /// Fills a device buffer whose first sample is heard `heardIn` seconds after the device's
    /// reported latency: the sources' samples summed, then volume and mute.
    public func render(into buffer: UnsafeMutableRawBufferPointer, heardIn: Double = 0) {
        state.withLock { s in render(s, into: buffer, heardIn: heardIn) }
    }

    private func render(_ s: borrowing State, into buffer: UnsafeMutableRawBufferPointer, heardIn: Double) {
        let inputs = s.inputs
        guard let first = inputs.first, first.bytesPerFrame > 0 else {
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        _ = first.source.pull(into: buffer, frames: buffer.count / first.bytesPerFrame, heardIn: heardIn)
        let samples = buffer.bindMemory(to: Float.self)
        if inputs.count > 1, let scratch = s.scratch, buffer.count <= scratch.count {
            let mix = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<buffer.count])
            for input in inputs.dropFirst() where input.bytesPerFrame == first.bytesPerFrame {
                _ = input.source.pull(into: mix, frames: buffer.count / input.bytesPerFrame, heardIn: heardIn)
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

    // MARK: AudioSource (a pacing thread standing in for the device)

    public func pull(into buffer: UnsafeMutableRawBufferPointer, frames: Int, heardIn: Double) -> Int {
        state.withLock { s in
            let bytes = s.inputs.first?.bytesPerFrame ?? 0
            guard bytes > 0 else { return }
            render(s, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, frames * bytes)]), heardIn: heardIn)
        }
        return frames
    }

    public func pullAvailable(into buffer: UnsafeMutableRawBufferPointer, frames: Int, timeout: Double) -> Int {
        pull(into: buffer, frames: frames, heardIn: 0)
    }
}
