import FFmpegKit
import Foundation
import Testing
import TestSupport
@testable import StoryKit

@Suite struct PosterCacheTests {
    @Test func keyframePosterIsScaledDownAndBlurred() async throws {
        let cache = PosterCache(stories: [Story(url: StoryFixtures.asset("h264-aac.mp4"))], maxSide: 160)
        let poster = try await cache.poster(for: 0).get()
        #expect(poster.source == .keyframe)
        // 320x240 fits 160 on the longer side: 160x120.
        #expect(poster.image.width == 160 && poster.image.height == 120)
        #expect(poster.blurred.width == 160 && poster.blurred.height == 120)
        #expect(variance(poster.blurred) < variance(poster.image) * 0.9, "the blurred copy has less detail")
        #expect(variance(poster.image) > 100, "testsrc2's first frame is not flat")
    }

    @Test func givenImageIsUsedAndABrokenOneFallsBackToTheKeyframe() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-poster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("red.png").path
        let ffmpeg = try await ChildProcess.run("ffmpeg", ["-v", "quiet", "-f", "lavfi", "-i", "color=c=red:s=64x48", "-frames:v", "1", png])
        #expect(ffmpeg.status == 0, "ffmpeg: \(ffmpeg.standardError)")
        let broken = dir.appendingPathComponent("broken.png").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: broken))

        let cache = PosterCache(stories: [Story(url: StoryFixtures.asset("h264-aac.mp4"), poster: png),
                                          Story(url: StoryFixtures.asset("h264-aac.mp4"), poster: broken)])
        let given = try await cache.poster(for: 0).get()
        #expect(given.source == .image)
        #expect(given.image.width == 64 && given.image.height == 48)
        let (r, g, b) = (given.image.pixels[0], given.image.pixels[1], given.image.pixels[2])
        #expect(r > 200 && g < 40 && b < 40, "red poster, got \(r),\(g),\(b)")
        #expect(try await cache.poster(for: 1).get().source == .keyframe)
    }

    @Test func storiesWithoutPicturesFailWithTheFileName() async {
        let cache = PosterCache(stories: [Story(url: StoryFixtures.asset("audio-only.m4a")),
                                          Story(url: "/nonexistent/story.mp4")])
        guard case .failure(let noVideo) = await cache.poster(for: 0) else { Issue.record("audio has no poster"); return }
        #expect(noVideo.description.contains("audio-only.m4a") && noVideo.reason.contains("no video"))
        guard case .failure(let missing) = await cache.poster(for: 1) else { Issue.record("missing file"); return }
        #expect(missing.description.contains("/nonexistent/story.mp4"))
        guard case .failure = await cache.poster(for: 7) else { Issue.record("out of range"); return }
    }

    @Test func cacheIsBoundedAndPrefetchMakesPostersAhead() async throws {
        let stories = StoryFixtures.clips.map { Story(url: StoryFixtures.asset($0)) }
        let cache = PosterCache(stories: stories, maxSide: 64, limit: 3)
        await cache.prefetch([0, 1])
        #expect(await cache.making == 2, "prefetched without being asked")
        // Asking joins the making under way instead of starting it again.
        _ = await cache.poster(for: 0)
        _ = await cache.poster(for: 1)
        #expect(await cache.madeCount == 2)
        let (zero, one) = (await cache.cached(0), await cache.cached(1))
        #expect(zero != nil && one != nil)
        let made = await cache.madeCount
        _ = await cache.poster(for: 0)
        #expect(await cache.madeCount == made, "a cached poster is not made again")
        for index in stories.indices { _ = await cache.poster(for: index) }
        #expect(await cache.count == 3)
        #expect(await cache.cached(stories.count - 1) != nil, "the most recent stays")
        #expect(await cache.cached(1) == nil, "the least recently used went first")
    }

    private func variance(_ image: RGBAImage) -> Double {
        let luma = stride(from: 0, to: image.pixels.count, by: 4).map { Double(image.pixels[$0]) }
        let mean = luma.reduce(0, +) / Double(luma.count)
        return luma.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(luma.count)
    }
}

@Suite struct BoxBlurTests {
    @Test func flatPictureStaysFlatAndAPointSpreads() {
        let flat = RGBAImage(width: 5, height: 4, pixels: [UInt8](repeating: 77, count: 5 * 4 * 4))
        #expect(BoxBlur.blur(flat, radius: 2) == flat)

        var pixels = [UInt8](repeating: 0, count: 9 * 9 * 4)
        pixels[(4 * 9 + 4) * 4] = 255
        let blurred = BoxBlur.blur(RGBAImage(width: 9, height: 9, pixels: pixels), radius: 1)
        let red = stride(from: 0, to: blurred.pixels.count, by: 4).map { Int(blurred.pixels[$0]) }
        #expect(red[4 * 9 + 4] < 255 && red[4 * 9 + 4] > 0)
        #expect(red[4 * 9 + 5] > 0 && red[3 * 9 + 4] > 0, "spreads both ways")
        #expect(red[4 * 9 + 4] >= red[4 * 9 + 6], "falls off from the centre")
        #expect(red[0] == 0, "a 3x3 box, three passes, reaches 3 pixels: not the corner")
    }
}
