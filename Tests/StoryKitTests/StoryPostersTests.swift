import FFmpegKit
import Foundation
import Testing
import TestSupport
@testable import StoryKit

@Suite struct StoryPostersTests {
    @Test func aKeyframePosterStandsInOnlyOnceItIsCached() async throws {
        let stories = [Story(url: StoryFixtures.asset("h264-aac.mp4"))]
        let posters = StoryPosters(cache: PosterCache(stories: stories, maxSide: 64), stories: stories)
        #expect(await posters.standIn(for: 0) == nil, "not decoded from the keyframe the player is decoding")
        #expect(await posters.cache.madeCount == 0)
        await posters.cache.prefetch([0])
        let made = try #require(await Self.cached(0, in: posters.cache))
        #expect(await posters.standIn(for: 0) == made)
        #expect(await posters.standIn(for: 5) == nil, "out of range")
    }

    @Test func aStorysOwnImageIsMadeAtOnce() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("blue.png").path
        let ffmpeg = try await ChildProcess.run("ffmpeg", ["-v", "quiet", "-f", "lavfi", "-i", "color=c=blue:s=32x24", "-frames:v", "1", png])
        #expect(ffmpeg.status == 0, "ffmpeg: \(ffmpeg.standardError)")

        let stories = [Story(url: StoryFixtures.asset("h264-aac.mp4"), poster: png)]
        let posters = StoryPosters(cache: PosterCache(stories: stories), stories: stories)
        let poster = try #require(await posters.standIn(for: 0))
        #expect(poster.source == .image && poster.image.width == 32)
    }

    @Test func prefetchMakesTheNeighboursAhead() async throws {
        let stories = StoryFixtures.stories
        let posters = StoryPosters(cache: PosterCache(stories: stories, maxSide: 64), stories: stories)
        await posters.prefetch(around: 2)
        let expected = StoryPosters.aheadOffsets.map { 2 + $0 }
        for index in expected { #expect(await Self.cached(index, in: posters.cache) != nil) }
        #expect(await posters.cache.madeCount == expected.count, "each made once, by the prefetch")
        #expect(await posters.cache.cached(0) == nil, "not the whole list")
    }

    /// Waits (a failure bound only) until the cache holds the poster of `index`.
    static func cached(_ index: Int, in cache: PosterCache) async -> Poster? {
        var poster: Poster?
        _ = await eventually { poster = await cache.cached(index); return poster != nil }
        return poster
    }
}

/// A story's input options (a party's media credential) stay in memory.
@Suite struct StoryCodingTests {
    @Test func inputOptionsAreNotEncoded() throws {
        let story = Story(url: "http://127.0.0.1:1/party/p/media/0", title: "t", inputOptions: ["headers": "Authorization: Bearer secret\r\n"])
        let json = String(decoding: try JSONEncoder().encode(story), as: UTF8.self)
        #expect(!json.contains("secret"), "\(json)")
        let decoded = try JSONDecoder().decode(Story.self, from: Data(json.utf8))
        #expect(decoded.url == story.url && decoded.title == "t" && decoded.inputOptions.isEmpty)
    }
}
