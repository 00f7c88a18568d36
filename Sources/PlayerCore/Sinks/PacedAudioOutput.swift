import FFmpegKit
import Foundation
import Synchronization

/// Drives an ``AudioSource`` without a sound card: in real time it pulls what a device would
/// have played since the start (so it never drifts from the host clock), telling the source when
/// that device heard it (``AudioPacer``); in fast mode it pulls
/// whatever is decoded, as soon as it is. Hands each block to `consume`.
final class PacedAudioOutput: Sendable {
    /// Pull period in real time: a sound device's typical callback size.
    static let period = 0.01

    private let realTime: Bool
    private let consume: @Sendable (UnsafeRawBufferPointer) -> Void
    private let stopped = Atomic<Bool>(false)
    private let thread = Mutex<WorkerThread?>(nil)

    init(realTime: Bool, consume: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.realTime = realTime
        self.consume = consume
    }

    func start(_ source: any AudioSource, format: AudioFormat) {
        let realTime = realTime
        let consume = consume
        let worker = WorkerThread(name: "tandem.audio-out") { [self] in
            let blockFrames = Int(Double(format.sampleRate) * Self.period)
            var block = [UInt8](repeating: 0, count: blockFrames * 4 * format.bytesPerFrame)
            let clock = MonotonicTimeSource()
            var pacer = AudioPacer(sampleRate: format.sampleRate, start: clock.now())
            while !stopped.load(ordering: .acquiring) {
                let n: Int = block.withUnsafeMutableBytes { buf in
                    if realTime {
                        let (frames, heardIn) = pacer.due(at: clock.now(), capacity: buf.count / format.bytesPerFrame)
                        return frames > 0 ? source.pull(into: buf, frames: frames, heardIn: heardIn) : 0
                    }
                    return source.pullAvailable(into: buf, frames: buf.count / format.bytesPerFrame, timeout: Self.period)
                }
                if n > 0 {
                    pacer.deliver(n)
                    block.withUnsafeBytes { consume(UnsafeRawBufferPointer(rebasing: $0[0..<n * format.bytesPerFrame])) }
                }
                if realTime { Thread.sleep(forTimeInterval: Self.period) }
            }
        }
        thread.withLock { $0 = worker }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        thread.withLock { $0 }?.join()
    }
}

/// Consumes samples at the real-time pace (or as fast as decoded in `--fast`), so headless
/// playback has an audio clock without a sound card.
public final class NullAudioSink: AudioSink {
    private let output: PacedAudioOutput

    public init(realTime: Bool = true) {
        output = PacedAudioOutput(realTime: realTime) { _ in }
    }

    public func format(sourceRate: Int, sourceChannels: Int) -> AudioFormat {
        AudioFormat(sampleRate: sourceRate, channels: min(sourceChannels, 2), sample: .float32)
    }

    public var latency: Double { 0 }
    public func start(_ source: any AudioSource, format: AudioFormat) { output.start(source, format: format) }
    public func stop() { output.stop() }
}
