import FFmpegKit
import Foundation
import PartyKit
import Synchronization
import Testing
import TestSupport
@testable import WebMedia

/// The host's converter as the party's endpoint uses it: the index, segments asked for at once,
/// subtitles, and what it refuses.
@Suite(.serialized) struct ConverterTests {
    init() { FFmpegLog.configure(level: .error) }

    static func converter() async throws -> WebMediaConverter {
        let film = try await Clips.matroska()
        let song = try await Clips.made("song-1.mp3", ["-f", "lavfi", "-i", "sine=f=330:r=44100:d=5", "-c:a", "libmp3lame", "-f", "mp3"])
        return WebMediaConverter(items: [
            0: .init(path: film, title: "film.mkv", streams: ["video h264 320x240", "audio ac3 48000 Hz 6 ch", "subtitle subrip"]),
            1: .init(path: song, title: "song.mp3", streams: ["audio mp3 44100 Hz 1 ch"]),
            2: .init(path: film, title: "film.mkv", streams: ["video hevc 320x240"]),
        ])
    }

    @Test func theIndexTellsThePageHowToPlayTheItem() async throws {
        let converter = try await Self.converter()
        let index = try JSONDecoder().decode(WebMediaIndex.self, from: Data(try await converter.answer(item: 0, .index)))
        #expect(index.plan == "remux" && index.audio == "transcode" && index.reason == nil)
        #expect(index.type?.hasPrefix("video/mp4; codecs=\"avc1.") == true)
        #expect(abs((index.timestampOffset ?? 0) + 0.075) < 1e-6, "B-frames: the first decode time is 3 frames before the first picture")
        #expect(abs(index.duration - 10) < 0.1)
        #expect(index.segments.count == 5 && index.segments.first?.start == 0 && index.segments.last?.end == index.duration)
        #expect(zip(index.segments, index.segments.dropFirst()).allSatisfy { $0.end == $1.start })
        #expect(index.subtitles == [.init(index: 0, language: "eng", title: nil, default: false)])

        let sound = try JSONDecoder().decode(WebMediaIndex.self, from: Data(try await converter.answer(item: 1, .index)))
        #expect(sound.plan == "direct" && sound.audio == "transcode" && sound.type == "audio/mp4; codecs=\"mp4a.40.2\"")
        #expect(sound.segments.count == 3, "5 s of sound: 2 s segments")

        let hevc = try JSONDecoder().decode(WebMediaIndex.self, from: Data(try await converter.answer(item: 2, .index)))
        #expect(hevc.plan == "unplayable" && hevc.reason?.contains("HEVC") == true && hevc.segments.isEmpty)
    }

    @Test func guestsAskingAtOnceGetOneSegmentMadeOnce() async throws {
        let converter = try await Self.converter()
        let answers = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<6 { group.addTask { try await converter.answer(item: 0, .segment(2)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(answers).count == 1 && answers[0].count > 1000)
        let initSegment = try await converter.answer(item: 0, .initSegment)
        #expect(initSegment.count > 500 && Array(initSegment[4..<8]) == Array("ftyp".utf8))
        #expect(Array(answers[0][4..<8]) == Array("moof".utf8))
        // The sound-only item's segments too.
        #expect(try await converter.answer(item: 1, .segment(2)).count > 100)
    }

    @Test func subtitlesAreWebVTT() async throws {
        let converter = try await Self.converter()
        let vtt = String(decoding: try await converter.answer(item: 0, .subtitles(0)), as: UTF8.self)
        #expect(vtt.hasPrefix("WEBVTT\n\n"))
        // At the file's times: ffmpeg muxed the SRT 5 ms late, as it did the video (ffprobe says 1.005 and 4.005).
        #expect(vtt.contains("00:00:01.005 --> 00:00:02.505\nHello <i>there</i> &amp; welcome\n"), "\(vtt)")
        #expect(vtt.contains("00:00:04.005 --> 00:00:05.005\nTwo lines\nof text\n"), "\(vtt)")
    }

    @Test func whatItDoesNotMakeIsUnavailableWithAReason() async throws {
        let converter = try await Self.converter()
        for (item, request) in [(0, WebMediaRequest.segment(5)), (0, .subtitles(1)), (1, .subtitles(0)), (2, .segment(0)), (2, .initSegment), (7, .index)] {
            await #expect(throws: WebMediaUnavailable.self, "\(item) \(request)") { _ = try await converter.answer(item: item, request) }
        }
    }

    @Test func theCacheMakesEachValueOnceAndDropsTheOldest() async throws {
        let made = Mutex(0)
        let cache = ResultCache<Int, [UInt8]>(capacity: 10, cost: { $0.count })
        let make: @Sendable (Int) -> @Sendable () async throws -> [UInt8] = { n in
            { made.withLock { $0 += 1 }; return Array(repeating: UInt8(n), count: 4) }
        }
        _ = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<5 { group.addTask { try await cache.value(for: 1, make: make(1)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(made.withLock { $0 } == 1)
        _ = try await cache.value(for: 2, make: make(2))
        _ = try await cache.value(for: 1, make: make(1))  // used: 2 is now the oldest
        _ = try await cache.value(for: 3, make: make(3))  // 12 bytes > 10: 2 goes
        let held = (await cache.holds(1), await cache.holds(2), await cache.holds(3))
        #expect(held == (true, false, true))
        await #expect(throws: CancellationError.self) { _ = try await cache.value(for: 4) { throw CancellationError() } }
        #expect(!(await cache.holds(4)), "a failure is not kept")
    }
}
