import Testing
@testable import FFmpegKit

/// atempo on a known tone: the duration changes by the tempo, the pitch does not.
@Suite struct AudioTempoFilterTests {
    static let rate = 48000
    static let frameSamples = 1024
    static let tone = 1000.0
    static let amplitude = 0.5

    /// `seconds` of the tone through a tempo filter, drained, as interleaved float stereo at the same rate.
    static func play(seconds: Double, tempo: Double, unknownLayout: Bool = false) throws -> (frames: Int, samples: [Float]) {
        let filter = AudioTempoFilter(tempo: tempo)
        let resampler = AudioResampler(output: AudioFormat(sampleRate: rate, channels: 2, sample: .float32))
        var bytes: [UInt8] = []
        var frames = 0
        let total = Int(seconds * Double(rate))
        let collect = { (out: Frame) throws(FFmpegError) in
            frames += out.sampleCount
            _ = try resampler.convert(out, into: &bytes)
        }
        for start in stride(from: 0, to: total, by: frameSamples) {
            let input = SyntheticMedia.audio(rate: rate, channels: 2, count: min(frameSamples, total - start), unknownLayout: unknownLayout) { _, i in
                SyntheticMedia.sine(tone, amplitude: amplitude, rate: rate, index: start + i)
            }
            try filter.process(input, collect)
        }
        try filter.process(nil, collect)
        return (frames, SyntheticMedia.floats(bytes))
    }

    @Test(arguments: [2.0, 0.5, 4.0])
    func theDurationChangesByTheTempoWithinAFrame(tempo: Double) throws {
        let seconds = 2.0
        let out = try Self.play(seconds: seconds, tempo: tempo)
        let expected = seconds / tempo * Double(Self.rate)
        #expect(abs(Double(out.frames) - expected) <= Double(Self.frameSamples), "\(out.frames) frames at \(tempo)x")
    }

    /// Sound whose channels have no layout (PCM in Matroska: "2 channels") is sped up too; atempo
    /// refused every frame of it, and the player never prerolled.
    @Test func soundWithoutAChannelLayoutChangesSpeedToo() throws {
        let out = try Self.play(seconds: 2, tempo: 1.25, unknownLayout: true)
        #expect(abs(Double(out.frames) - 2 / 1.25 * Double(Self.rate)) <= Double(Self.frameSamples), "\(out.frames) frames")
    }

    /// Played twice as fast, the 1 kHz tone is still at 1 kHz (a plain speed-up would put it at 2 kHz).
    @Test func thePitchIsKept() throws {
        let out = try Self.play(seconds: 2, tempo: 2)
        let left = SyntheticMedia.channel(0, of: out.samples, channels: 2)
        let block = Self.rate / 10  // 0.1 s: whole periods of 1 and 2 kHz
        let samples = left[Self.rate / 4..<Self.rate / 4 + block]
        let kept = SyntheticMedia.amplitude(of: Self.tone, in: samples, rate: Self.rate)
        let doubled = SyntheticMedia.amplitude(of: 2 * Self.tone, in: samples, rate: Self.rate)
        // Overlap-add of windows of a steady tone keeps its level to within a few percent.
        #expect(abs(kept - Self.amplitude) < 0.1 * Self.amplitude, "\(kept) at 1 kHz")
        #expect(doubled < 0.05 * Self.amplitude, "\(doubled) at 2 kHz")
    }

    @Test(arguments: [0.25, 0.3, 0.5, 1.0, 2.0, 3.0, 4.0])
    func stagesMultiplyToTheTempoWithinAtempoRange(tempo: Double) {
        let stages = AudioTempoFilter.stages(for: tempo)
        #expect(abs(stages.reduce(1, *) - tempo) < 1e-12)
        #expect(stages.allSatisfy { (0.5...2.0).contains($0) })
    }
}
