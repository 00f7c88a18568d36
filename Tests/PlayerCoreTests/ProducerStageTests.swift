import FFmpegKit
import Testing
@testable import PlayerCore

/// The audio producer's timestamps: each chunk must say where in the media its first sample is,
/// whatever the resampler holds back, or the clock anchored on it jumps.
@Suite struct ProducerStageTests {
    /// Decoded frames of the first audio stream of `file`, up to `count` of them.
    static func frames(of file: String, count: Int) throws -> [Frame] {
        let input = try InputFile(url: file)
        let index = try #require(input.bestStream(.audio))
        let decoder = try Decoder(input: input, streamIndex: index)
        var frames: [Frame] = []
        let packet = Packet()
        while frames.count < count, try input.read(into: packet) == .ok {
            guard packet.streamIndex == index else { continue }
            _ = try decoder.send(packet)
            while true {
                let frame = Frame()
                guard try decoder.receive(into: frame) == .ok else { break }
                frames.append(frame)
            }
        }
        return frames
    }

    /// A correction switched on and off again mid-stream (as a party's controller does): the chunks'
    /// media times run on without a jump. When a correction first forces swresample to resample, it
    /// holds half its filter (16 samples) back; chunks that ignored it claimed to start 16 samples
    /// late, and the clock jumped by 0.7 ms at 22.05 kHz each time a correction began.
    @Test func chunksStayContinuousAcrossACorrection() throws {
        let file = TestMedia.path("audio-only.m4a")  // 48 kHz mono
        let frames = try Self.frames(of: file, count: 30)
        try #require(frames.count == 30)
        let rate = frames[0].sampleRate
        var stage = ProducerStage(format: AudioFormat(sampleRate: rate, channels: 1, sample: .float32))
        var position = 0.0
        var expectedStart: Double?
        for (i, frame) in frames.enumerated() {
            let correction = (10..<20).contains(i) ? 0.005 : 0
            let samples = frame.sampleCount
            let chunk = try stage.render(frame, position: position, speed: PlaybackSpeed(rate: 1, correction: correction))
            if let expectedStart {
                // Within a sample: a correction is applied in whole samples, its fraction carried.
                #expect(abs(chunk.start - expectedStart) * Double(rate) < 1,
                        "chunk \(i) starts \((chunk.start - expectedStart) * Double(rate)) samples off where the last one ended")
            }
            expectedStart = chunk.start + Double(chunk.frames) * chunk.mediaPerFrame
            position += Double(samples) / Double(rate)
        }
    }
}
