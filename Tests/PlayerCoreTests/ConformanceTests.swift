import FFmpegKit
import PlayerCore
import Testing

/// Tandem decodes exactly what ffmpeg decodes: every picture, every sample.
@Suite(.serialized) struct ConformanceTests {
    @Test(arguments: TestMedia.videoClips)
    func framesMatchFFmpegFrameMD5(clip: String) async throws {
        let file = TestMedia.path(clip)
        let reference = try await TestMedia.ffmpegFrameMD5(file)
        #expect(!reference.isEmpty, "ffmpeg decoded nothing from \(clip): is the ffmpeg CLI installed?")
        let sink = RecordingVideoSink()
        let firstVideo = try InputFile(url: file).info().streams.first { $0.type == .video }?.index
        let player = try await Player.open(file, options: PlayerOptions(videoSink: sink, audioSink: nil, fast: true,
                                                                         videoStreamIndex: firstVideo))
        player.play()
        await player.waitUntilEnded()
        await player.close()
        #expect(sink.hashes == reference)
        #expect(player.stats.videoFrames == reference.count)
    }

    @Test(arguments: TestMedia.audioClips)
    func audioSampleCountMatchesFFmpeg(clip: String) async throws {
        let file = TestMedia.path(clip)
        let reference = try await TestMedia.ffmpegAudioSamples(file)
        #expect(reference > 0)
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: NullAudioSink(realTime: false),
                                                                         fast: true))
        player.play()
        await player.waitUntilEnded()
        await player.close()
        #expect(player.stats.audioSamples == reference)
    }

    @Test func wavOutputIsBitExactWithFFmpegDecode() async throws {
        let file = TestMedia.path("vp9-opus.webm")
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-\(UInt32.random(in: 0...UInt32.max)).wav").path
        defer { try? FileManager.default.removeItem(atPath: wav) }
        let sink = try WAVAudioSink(path: wav, realTime: false)
        let player = try await Player.open(file, options: PlayerOptions(videoSink: nil, audioSink: sink, fast: true))
        player.play()
        await player.waitUntilEnded()
        await player.close()
        let written = try Data(contentsOf: URL(fileURLWithPath: wav))
        let reference = try await TestMedia.run("ffmpeg", ["-v", "quiet", "-i", file, "-map", "0:a:0", "-f", "s16le", "-"])
        #expect(written.count == reference.count + 44)
        #expect(written.dropFirst(44) == reference)
    }
}

import Foundation
