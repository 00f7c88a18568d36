import FFmpegKit
import Testing
@testable import StoryKit

/// The posters loaded ahead of swipes, as a state machine: which loads to start when a story
/// settles, what a swipe can show at once, and what is let go.
@Suite struct PosterPreloadTests {
    static func poster(_ shade: UInt8) -> Poster {
        let image = RGBAImage(width: 1, height: 1, pixels: [shade, shade, shade, 255])
        return Poster(image: image, blurred: image, source: .image)
    }

    @Test func settlingLoadsTheStoryAndItsNeighboursOnce() {
        var preload = PosterPreload(count: 5)
        let first = preload.settled(at: 0)
        #expect(first == [0, 1, 2], "itself, the next and the one after (no story before the first)")
        #expect(preload.isLoading(1))
        #expect(preload.poster(for: 1) == nil, "not before its load finished")
        let again = preload.settled(at: 0)
        #expect(again.isEmpty, "under way: not started twice")
        preload.loaded(1, Self.poster(1))
        #expect(preload.poster(for: 1) == Self.poster(1), "a swipe to 1 shows it at once")
        let next = preload.settled(at: 1)
        #expect(next == [3], "0, 1 and 2 are ready or under way")
    }

    @Test func aFailedLoadIsNotRetriedAndAJumpWantsItsTarget() {
        var preload = PosterPreload(count: 10)
        _ = preload.settled(at: 0)
        preload.loaded(2, nil)
        #expect(preload.poster(for: 2) == nil)
        let retried = preload.want(2)
        #expect(!retried, "failed: not tried again")
        let jumped = preload.want(7), twice = preload.want(7)
        #expect(jumped, "a jump past the preloaded ones")
        #expect(!twice, "under way")
        let past = preload.want(10), before = preload.want(-1)
        #expect(!past && !before, "out of range")
    }

    @Test func postersFarBehindAreLetGo() {
        var preload = PosterPreload(count: 20)
        _ = preload.settled(at: 0)
        preload.loaded(0, Self.poster(0))
        preload.loaded(1, Self.poster(1))
        _ = preload.settled(at: 3)
        #expect(preload.poster(for: 0) == Self.poster(0), "within keepDistance of 3")
        let far = preload.settled(at: 10)
        #expect(preload.poster(for: 0) == nil && preload.poster(for: 1) == nil)
        #expect(far == [10, 11, 9, 12])
        let back = preload.settled(at: 0)
        #expect(back.contains(0), "let go: loaded again when it comes back")
    }
}
