import Foundation
import PlayerCore
import Synchronization
import TestSupport

/// A source that writes a click (10 ms at 0.9) every half second of host time, placed by the
/// sink's reported delay exactly as the player's audio stage places its samples.
final class ClickSource: AudioSource, Sendable {
    static let period = 0.5
    static let clickSeconds = 0.01

    private let sink: any AudioSink
    private let start: Double
    private let pulled = Atomic<Int>(0)
    private let clicks = Atomic<Int>(0)

    init(sink: any AudioSink, start: Double) {
        self.sink = sink
        self.start = start
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    var framesPulled: Int { pulled.load(ordering: .relaxed) }
    var clicksWritten: Int { clicks.load(ordering: .relaxed) }

    func pull(into buffer: UnsafeMutableRawBufferPointer, frames: Int, heardIn: Double) -> Int {
        let rate = Double(PulseServer.rate)
        let heardAt = Self.now() + sink.latency + heardIn
        let samples = buffer.bindMemory(to: Float.self)
        var started = 0
        for i in 0..<min(frames, samples.count) {
            let t = heardAt + Double(i) / rate - start
            let phase = t - (t / Self.period).rounded(.down) * Self.period
            let on = t >= 0 && phase < Self.clickSeconds
            if on, phase < 1 / rate { started += 1 }
            samples[i] = on ? 0.9 : 0
        }
        pulled.add(frames, ordering: .relaxed)
        clicks.add(started, ordering: .relaxed)
        return frames
    }

    func pullAvailable(into buffer: UnsafeMutableRawBufferPointer, frames: Int, timeout: Double) -> Int {
        pull(into: buffer, frames: frames, heardIn: 0)
    }
}
