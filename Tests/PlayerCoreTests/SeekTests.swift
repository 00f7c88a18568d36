import Foundation
import PlayerCore
import Testing

/// Accurate seek shows the frame ffmpeg's `-ss` gives; no stale picture survives a seek.
@Suite(.serialized) struct SeekTests {
    static let targets: [(String, Double)] = [
        ("h264-aac.mp4", 0), ("h264-aac.mp4", 0.5), ("h264-aac.mp4", 1.0), ("h264-aac.mp4", 1.02),
        ("h264-aac.mp4", 2.37), ("h264-aac.mp4", 3.96), ("vp9-opus.webm", 0.73), ("vp9-opus.webm", 2.5),
        ("vfr.mkv", 0.9), ("vfr.mkv", 2.2), ("odd-dims-420.webm", 1.3), ("10bit.mkv", 1.55),
    ]

    @Test(arguments: targets)
    func accurateSeekShowsFFmpegsFrame(clip: String, target: Double) async throws {
        let file = TestMedia.path(clip)
        let expected = try #require(try await TestMedia.ffmpegFrameMD5(file, start: target, frames: 1).first)
        let sink = RecordingVideoSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
        await player.seek(to: target)
        let last = try #require(sink.records.last)
        #expect(FrameHash(size: last.size, md5: last.md5) == expected)
        #expect(abs(player.position - target) < 1e-9)
        #expect(player.state == .paused)
        await player.close()
    }

    @Test func seekDuringPlaybackNeverShowsAStaleFrame() async throws {
        let file = TestMedia.path("h264-aac.mp4")
        let expected = try await TestMedia.ffmpegFrameMD5(file, start: 2.0)
        let sink = RecordingVideoSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
        player.play()
        #expect(await sink.wait { $0.count >= 5 })
        await player.seek(to: 2.0)
        #expect(await sink.wait { $0.contains { $0.position >= 2.4 } })
        await player.close()
        let records = sink.records
        let start = try #require(records.lastIndex { FrameHash(size: $0.size, md5: $0.md5) == expected[0] })
        let after = records[start...]
        #expect(after.allSatisfy { $0.position >= 2.0 })
        #expect(zip(after, after.dropFirst()).allSatisfy { $0.position < $1.position })
        // Played on from the target, every picture is ffmpeg's next one or a dropped-late gap.
        let hashes = after.map { FrameHash(size: $0.size, md5: $0.md5) }
        #expect(hashes.allSatisfy { expected.contains($0) })
    }

    @Test func hundredSeeksInARowLandOnTheirTargets() async throws {
        let file = TestMedia.path("h264-aac.mp4")
        let all = try await TestMedia.ffmpegFrameMD5(file)
        let sink = RecordingVideoSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
        player.play()
        var rng = SplitMix64(seed: 42)
        for i in 0..<100 {
            // Frame-aligned targets (25 fps), so the expected picture is exact: frame k shows at k/25.
            let frame = Int(rng.next() % 99)
            let target = Double(frame) / 25
            await player.seek(to: target, accurate: true)
            let shown = try #require(sink.records.last { abs($0.position - Double(frame) / 25) < 1e-6 }, "seek \(i)")
            #expect(FrameHash(size: shown.size, md5: shown.md5) == all[frame], "seek \(i) to \(target)")
        }
        #expect(player.state == .playing)
        await player.close()
    }

    /// On a manual clock: what "nothing moves while paused" means is checked once the presenter
    /// has looked at the later time, not after a sleep.
    @Test func pauseSeekResume() async throws {
        let file = TestMedia.path("h264-aac.mp4")  // 25 fps
        let time = ObservedTimeSource(0)
        let sink = RecordingVideoSink(hashing: false)
        let audio = ManualAudioSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: sink, audioSink: audio, timeSource: time))
        await player.waitUntilReady()  // the clock starts at host time 0
        player.play()
        for k in 1...3 {
            time.set(Double(k) / 25)
            #expect(await sink.wait { $0.contains { abs($0.position - Double(k) / 25) < 1e-6 } })
        }
        player.pause()
        let held = player.position
        #expect(held == 3.0 / 25)
        time.advance(by: 1)
        #expect(player.position == held)
        #expect(audio.pull(frames: 4410).allSatisfy { $0 == 0 }, "paused: silence")
        #expect(await time.presenterHasLooked())
        #expect(sink.records.last?.position == held)
        await player.seek(to: 1.0)
        #expect(player.position == 1.0)
        let shownWhilePaused = sink.records.count
        time.advance(by: 1)
        #expect(await time.presenterHasLooked())
        #expect(sink.records.count == shownWhilePaused)  // paused: only the seek's own picture
        #expect(player.position == 1.0)
        #expect(player.state == .paused)
        player.play()
        time.advance(by: 1.0 / 25)
        #expect(await sink.wait { $0.count > shownWhilePaused })
        #expect(sink.records.last.map { abs($0.position - 1.04) < 1e-6 } == true)
        #expect(player.position > 1.0)
        await player.close()
    }

    @Test func frameStepShowsTheNextPicture() async throws {
        let file = TestMedia.path("h264-aac.mp4")
        let all = try await TestMedia.ffmpegFrameMD5(file)
        let sink = RecordingVideoSink()
        let player = try await Player.open(file, options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink()))
        await player.seek(to: 1.0)
        for k in 26...28 {
            player.step()
            #expect(await sink.wait { $0.last.map { abs($0.position - Double(k) / 25) < 1e-6 } ?? false })
            #expect(sink.hashes.last == all[k])
            #expect(abs(player.position - Double(k) / 25) < 1e-6)
        }
        #expect(player.state == .paused)
        await player.close()
    }

    @Test func keyframeSeekLandsOnAKeyframeAtOrBeforeTheTarget() async throws {
        let file = TestMedia.path("h264-aac.mp4")  // keyframes every second
        let sink = RecordingVideoSink(hashing: false)
        let player = try await Player.open(file, options: PlayerOptions(videoSink: sink, audioSink: nil))
        await player.seek(to: 2.5, accurate: false)
        #expect(sink.records.last?.position == 2.0)
        #expect(player.position == 2.0)
        await player.close()
    }
}

/// A small deterministic generator (tests must not depend on the system RNG).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
