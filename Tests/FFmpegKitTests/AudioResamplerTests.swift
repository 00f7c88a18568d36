import CFFmpeg
import Testing
@testable import FFmpegKit

/// The resampler on a known signal: how many samples come out, and that they are the same sound.
@Suite struct AudioResamplerTests {
    static let inputRate = 48000
    static let outputRate = 44100
    static let frameSamples = 1024
    static let amplitude = 0.5
    /// Left and right carry different tones, so a swapped or mixed channel shows.
    static let tones = [1000.0, 3000.0]
    /// Until flushed, swr holds back about half its filter (16 taps at the default quality) plus
    /// a frame's rounding: at most this many output samples are still inside it.
    static let heldBack = 64

    /// One second of the two tones through a resampler to 44.1 kHz float stereo.
    static func resampleOneSecond(correction: Double) throws -> [Float] {
        let resampler = AudioResampler(output: AudioFormat(sampleRate: outputRate, channels: 2, sample: .float32))
        var bytes: [UInt8] = []
        var produced = 0
        for start in stride(from: 0, to: inputRate, by: frameSamples) {
            let count = min(frameSamples, inputRate - start)
            let frame = SyntheticMedia.audio(rate: inputRate, channels: 2, count: count) { c, i in
                SyntheticMedia.sine(tones[c], amplitude: amplitude, rate: inputRate, index: start + i)
            }
            produced += try resampler.convert(frame, correction: correction, into: &bytes)
        }
        let samples = SyntheticMedia.floats(bytes)
        #expect(samples.count == produced * 2, "frames returned match the bytes appended")
        return samples
    }

    @Test func oneSecondAt48kHzIsOneSecondAt44_1kHzOfTheSameTones() throws {
        let out = try Self.resampleOneSecond(correction: 0)
        let frames = out.count / 2
        #expect(frames <= Self.outputRate && frames >= Self.outputRate - Self.heldBack, "\(frames) frames")
        // A block of 0.1 s (whole periods of both tones), past the filter's start.
        let block = Self.outputRate / 10
        for (c, tone) in Self.tones.enumerated() {
            let channel = SyntheticMedia.channel(c, of: out, channels: 2)
            let samples = channel[Self.outputRate / 4..<Self.outputRate / 4 + block]
            let heard = SyntheticMedia.amplitude(of: tone, in: samples, rate: Self.outputRate)
            let other = SyntheticMedia.amplitude(of: Self.tones[1 - c], in: samples, rate: Self.outputRate)
            #expect(abs(heard - Self.amplitude) < 0.01 * Self.amplitude, "channel \(c): \(heard) at \(tone) Hz")
            #expect(other < 0.001, "channel \(c): \(other) of the other channel's tone")
        }
    }

    /// A correction of +0.5 % takes 0.5 % of the samples out, spread over the frames.
    @Test(arguments: [0.005, -0.005])
    func aCorrectionChangesTheSampleCountByItsFraction(correction: Double) throws {
        let plain = try Self.resampleOneSecond(correction: 0).count / 2
        let corrected = try Self.resampleOneSecond(correction: correction).count / 2
        let expected = Double(plain) * (1 - correction)
        // One sample of rounding per frame at most is carried, never lost.
        #expect(abs(Double(corrected) - expected) <= 2, "\(corrected) frames, expected \(expected)")
    }

    @Test func resetForgetsWhatWasHeldBack() throws {
        let resampler = AudioResampler(output: AudioFormat(sampleRate: Self.outputRate, channels: 2, sample: .int16))
        let silence = SyntheticMedia.audio(rate: Self.inputRate, channels: 2, count: Self.frameSamples) { _, _ in 0 }
        var first: [UInt8] = [], again: [UInt8] = []
        let n1 = try resampler.convert(silence, into: &first)
        resampler.reset()
        let n2 = try resampler.convert(silence, into: &again)
        #expect(n1 == n2, "after a reset the resampler starts afresh")
        #expect(first.count == n1 * 4 && first.allSatisfy { $0 == 0 })
    }
}
