import PlayerCore
import Testing
@testable import StoryKit

/// Nothing a navigator starts keeps it alive: after ``StoryNavigator/close()`` (or once it is let
/// go) its tasks are over and it is freed, even with auto-advance armed and the ticker running.
@Suite struct NavigatorLifetimeTests {
    /// A dwell no test waits out: a task sleeping through it while holding the navigator would keep
    /// the navigator alive for an hour.
    static let longDwell = 3600.0
    /// Frequent progress ticks, so the ticker is asleep, not done, when the navigator closes.
    static let tickInterval = 0.05

    @Test func aClosedNavigatorIsReleasedWhileAutoAdvanceIsArmed() async throws {
        var options = StoryFixtures.options(autoAdvance: true)
        options.failedStoryDwell = Self.longDwell
        options.progressInterval = Self.tickInterval
        let stories = [Story(url: "/nonexistent/first.mp4"), Story(url: StoryFixtures.asset("h264-aac.mp4"))]
        var navigator: StoryNavigator? = StoryNavigator(stories: stories, options: options)
        weak let released = navigator
        let events = StoryFixtures.Recorder.start(try #require(navigator).events())
        await navigator?.play()
        // The first story failed: auto-advance waits out the dwell before going on.
        #expect(await events.wait { if case .storyFailed(0, _) = $0 { true } else { false } } != nil)
        await navigator?.close()
        navigator = nil
        #expect(released == nil, "no task of a closed navigator holds it")
    }

    @Test func aClosedNavigatorIsReleasedWhileAStoryPlaysAndTheTickerRuns() async throws {
        var options = StoryFixtures.options(autoAdvance: true)
        options.progressInterval = Self.tickInterval
        var navigator: StoryNavigator? = StoryNavigator(stories: StoryFixtures.stories, options: options)
        weak let released = navigator
        let events = StoryFixtures.Recorder.start(try #require(navigator).events())
        await navigator?.play()
        #expect(await events.wait { if case .progress = $0 { true } else { false } } != nil)
        let player = try #require(await navigator?.currentPlayer)
        await navigator?.close()
        navigator = nil
        #expect(released == nil, "no task of a closed navigator holds it")
        #expect(player.state == .closed && player.runningThreads == 0)
    }

    @Test func aNavigatorLetGoWithoutCloseClosesItsPlayers() async throws {
        var navigator: StoryNavigator? = StoryNavigator(stories: StoryFixtures.stories,
                                                        options: StoryFixtures.options(autoAdvance: true))
        weak let released = navigator
        let events = try #require(navigator).events()
        await navigator?.play()
        let player = try #require(await navigator?.currentPlayer)
        navigator = nil
        #expect(released == nil, "its tasks do not keep it")
        for await _ in events {}  // the stream ends once the serial task has closed everything
        #expect(player.state == .closed && player.runningThreads == 0)
    }

    @Test func operationsAfterCloseDoNothing() async {
        let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.lightOptions())
        await navigator.close()
        await navigator.play()
        #expect(await navigator.begin(.forward) == false)
        #expect(await navigator.currentPlayer == nil)
        #expect(await navigator.census.players == 0)
        await navigator.close()
    }
}
