import FFmpegKit
import Foundation
import PlayerCore
import Testing

/// Bad files get a clear error naming the file; damaged streams play through with warnings.
@Suite(.serialized) struct BadInputTests {
    @Test(arguments: [
        ("bad/empty.mp4", "empty"),
        ("bad/not-media.mp4", "not a media file"),
        ("bad/truncated-header.mp4", "no playable"),
        ("bad/unsupported-codec.mkv", "unsupported codec"),
        ("no-such-file.mp4", "no such file"),
        ("bad", "directory"),
    ])
    func unplayableFileNamesFileAndReason(name: String, reason: String) async {
        let file = TestMedia.path(name)
        do {
            let player = try await Player.open(file)
            await player.close()
            Issue.record("\(name) opened")
        } catch {
            #expect(error.description.contains(file))
            #expect(error.description.contains(reason), "\(error.description)")
        }
    }

    @Test(arguments: ["bad/truncated.mp4", "bad/corrupted.mp4"])
    func damagedFilePlaysThroughWithWarnings(name: String) async throws {
        let sink = RecordingVideoSink(hashing: false)
        let player = try await Player.open(TestMedia.path(name),
                                           options: PlayerOptions(videoSink: sink, audioSink: NullAudioSink(realTime: false), fast: true))
        let events = player.events()
        let warnings = Task { var n = 0; for await e in events { if case .warning = e { n += 1 } }; return n }
        player.play()
        #expect(await finishes(within: 30) { await player.waitUntilEnded() })
        await player.close()
        // Counted by the player: some may come before the event stream is subscribed.
        #expect(player.stats.warnings > 0)
        #expect(await warnings.value <= player.stats.warnings)
        #expect(sink.records.count > 20)
    }

    @Test func randomBitFlipsNeverCrashOrHang() async throws {
        var rng = SplitMix64(seed: 7)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-fuzz-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var opened = 0, refused = 0
        for clip in ["h264-aac.mp4", "vp9-opus.webm", "vfr.mkv"] {
            let original = try Data(contentsOf: URL(fileURLWithPath: TestMedia.path(clip)))
            for round in 0..<12 {
                var bytes = [UInt8](original)
                for _ in 0..<(1 + Int(rng.next() % 40)) {
                    let i = Int(rng.next() % UInt64(bytes.count))
                    bytes[i] ^= UInt8(1 << (rng.next() % 8))
                }
                let path = dir.appendingPathComponent("\(round)-\(clip)").path
                _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
                do {
                    let player = try await Player.open(path, options: PlayerOptions(
                        videoSink: NullVideoSink(), audioSink: NullAudioSink(realTime: false), fast: true))
                    player.play()
                    #expect(await finishes(within: 30) { await player.waitUntilEnded() }, "\(path) hung")
                    await player.close()
                    opened += 1
                } catch {
                    #expect(error.description.contains(path))
                    refused += 1
                }
            }
        }
        #expect(opened + refused == 36)
    }
}

/// Whether `body` completes within `seconds` (a hang detector, not a speed test).
func finishes(within seconds: Double, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask { await body(); return true }
        group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)); return false }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}
