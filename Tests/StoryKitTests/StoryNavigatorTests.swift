import Foundation
import PlayerCore
import Synchronization
import Testing
import TestSupport
@testable import StoryKit

@Suite struct StoryNavigatorTests {
    /// How far ahead a test's scheduled switch is: room to open and preroll the target first.
    static let showLead = 1.0

    @Test func playOpensOneStoryAndShowsItsFirstFrame() async throws {
        let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.options())
        let events = StoryFixtures.Recorder.start(navigator.events())
        await navigator.play()
        #expect(await events.wait { if case .firstFrame(0, _) = $0 { true } else { false } } != nil)
        #expect(await navigator.census.players == 1)
        let player = try #require(await navigator.currentPlayer)
        #expect(player.state == .playing)
        #expect(events.all.contains(.storyStarted(StoryIndicator(index: 0, count: 5, progress: 0), title: "h264-aac")))
        await navigator.close()
        #expect(player.state == .closed && player.runningThreads == 0)
        #expect(await navigator.census.players == 0)
    }

    @Test func swipeOpensTheNeighbourWhileTheCurrentPlaysThenCommitFreesTheOld() async throws {
        let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.options())
        let events = StoryFixtures.Recorder.start(navigator.events())
        await navigator.play()
        let first = try #require(await navigator.currentPlayer)
        await first.waitUntilReady()

        #expect(await navigator.begin(.forward))
        let second = try #require(await navigator.neighbourPlayer)
        #expect(await navigator.census.players == 2)
        #expect(first.state == .playing, "the current story keeps playing during the swipe")
        #expect(second.state == .paused, "the neighbour waits on its first frame")
        await second.waitUntilReady()
        let before = first.stats.videoFrames
        _ = await eventually { first.stats.videoFrames >= before + 3 }
        #expect(first.stats.videoFrames >= before + 3, "the current story still presents pictures")
        await navigator.setTransitionProgress(0.6)
        #expect(navigator.snapshot.transitionProgress == 0.6)
        #expect(navigator.snapshot.neighbour?.index == 1)

        await navigator.commit()
        #expect(await navigator.currentIndex == 1)
        #expect(await navigator.currentPlayer === second)
        #expect(second.state == .playing)
        #expect(first.state == .closed && first.runningThreads == 0, "the old player is freed before commit returns")
        #expect(await navigator.census.players == 1)
        // Events reach the recorder's task asynchronously.
        #expect(await events.wait { $0 == .transitionBegan(from: 0, to: 1) } != nil)
        #expect(await events.wait { $0 == .transitionCommitted(from: 0, to: 1) } != nil)
        #expect(await events.wait { $0 == .firstFrame(index: 1, latency: 0) } != nil, "a prepared neighbour has its picture at commit")
        await navigator.close()
    }

    @Test func cancelFreesTheNeighbourAndKeepsTheStory() async throws {
        let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.options())
        let events = StoryFixtures.Recorder.start(navigator.events())
        await navigator.play()
        #expect(await navigator.begin(to: 3))
        let neighbour = try #require(await navigator.neighbourPlayer)
        await navigator.cancel()
        #expect(neighbour.state == .closed)
        #expect(await navigator.currentIndex == 0)
        #expect(await navigator.census.players == 1)
        #expect(await events.wait { $0 == .transitionCancelled(from: 0, to: 3) } != nil)
        // A second begin in another direction replaces a pending one instead of adding a third player.
        #expect(await navigator.begin(.forward))
        #expect(await navigator.begin(to: 4))
        #expect(await navigator.census.players == 2)
        #expect(await navigator.peakLivePlayers == 2)
        await navigator.close()
    }

    @Test func edgesOfTheList() async throws {
        let navigator = StoryNavigator(stories: Array(StoryFixtures.stories.prefix(2)), options: StoryFixtures.options())
        await navigator.play()
        #expect(await navigator.begin(.backward) == false, "nothing before the first story")
        await navigator.previous()
        #expect(await navigator.currentIndex == 0, "previous at the first story restarts it")
        #expect(await navigator.currentPlayer?.state == .playing)
        await navigator.next()
        #expect(await navigator.currentIndex == 1)
        let last = await navigator.currentPlayer
        await navigator.next()
        let (index, player) = (await navigator.currentIndex, await navigator.currentPlayer)
        #expect(index == 1 && player === last, "next at the last story changes nothing")
        await navigator.jump(to: 7)
        #expect(await navigator.currentIndex == 1)
        await navigator.previous()
        #expect(await navigator.currentIndex == 0)
        await navigator.close()
    }

    @Test func playAndStopAreIdempotent() async throws {
        let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.options())
        let events = StoryFixtures.Recorder.start(navigator.events())
        await navigator.play()
        let player = try #require(await navigator.currentPlayer)
        #expect(await events.wait { if case .storyStarted = $0 { true } else { false } } != nil)
        let started = events.all.filter { if case .storyStarted = $0 { true } else { false } }.count
        await navigator.play()
        #expect(await navigator.currentPlayer === player && player.state == .playing)
        #expect(await navigator.census.players == 1)
        #expect(events.all.filter { if case .storyStarted = $0 { true } else { false } }.count == started)

        await navigator.stop()
        #expect(player.state == .closed)
        let census = await navigator.census
        #expect(census.players == 0 && census.threads == 0)
        await navigator.stop()
        #expect(await navigator.census.players == 0)
        #expect(await navigator.currentIndex == 0)
        await navigator.play()
        #expect(await navigator.currentPlayer?.state == .playing, "play after stop opens the story again")
        await navigator.close()
    }

    @Test func autoAdvanceGoesThroughTheListAndFinishes() async throws {
        // Three short clips (2 s each) at 4x: about 1.5 s in all.
        let stories = ["odd-dims.mp4", "10bit.mkv", "odd-dims-420.webm"].map { Story(url: StoryFixtures.asset($0)) }
        var options = StoryFixtures.options(autoAdvance: true)
        options.playerOptions = { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: NullAudioSink(realTime: true), rate: 4) }
        let navigator = StoryNavigator(stories: stories, options: options)
        let events = StoryFixtures.Recorder.start(navigator.events())
        await navigator.play()
        #expect(await events.wait(timeout: 30) { $0 == .finished } != nil)
        let started = events.all.compactMap { if case .storyStarted(let indicator, _) = $0 { indicator.index } else { nil } }
        #expect(started == [0, 1, 2])
        #expect(await navigator.peakLivePlayers <= 2)
        await navigator.close()
    }

    @Test func aStoryThatFailsShowsItsErrorAndNavigationGoesOn() async throws {
        let stories = [Story(url: StoryFixtures.asset("h264-aac.mp4")), Story(url: "/nonexistent/missing.mp4"),
                       Story(url: StoryFixtures.asset("bad/empty.mp4")), Story(url: StoryFixtures.asset("vp9-opus.webm"))]
        let navigator = StoryNavigator(stories: stories, options: StoryFixtures.options())
        let events = StoryFixtures.Recorder.start(navigator.events())
        await navigator.play()
        await navigator.next()
        #expect(await navigator.currentIndex == 1)
        #expect(await navigator.currentPlayer == nil)
        #expect(navigator.snapshot.current?.error?.contains("/nonexistent/missing.mp4") == true)
        #expect(await navigator.census.players == 0)
        #expect(await events.wait { if case .storyFailed(1, let reason) = $0 { reason.contains("missing.mp4") } else { false } } != nil)
        await navigator.next()
        await navigator.next()
        #expect(await navigator.currentIndex == 3)
        #expect(await navigator.currentPlayer?.state == .playing)
        await navigator.close()
    }

    @Test func postersOfTheNeighboursAreMadeAhead() async throws {
        let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.options())
        await navigator.jump(to: 2)
        for index in [1, 3, 4] {
            _ = await eventually { await navigator.posters.cached(index) != nil }
        }
        let (one, three) = (await navigator.posters.cached(1), await navigator.posters.cached(3))
        #expect(one != nil && three != nil)
        #expect(await navigator.posters.cached(4) != nil, "two ahead in the usual direction")
        #expect(await navigator.posters.cached(0) == nil, "not the whole list")
        await navigator.close()
    }

    @Test func showPrerollsTheTargetReportsPreparedThenSwitchesAtTheInstant() async throws {
        let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.options())
        let events = StoryFixtures.Recorder.start(navigator.events())
        await navigator.play()
        let first = try #require(await navigator.currentPlayer)
        let clock = MonotonicTimeSource()
        let instant = clock.now() + Self.showLead
        struct Seen: Sendable, Equatable { var current: Int?, neighbour: Int?, prerolled: Bool, currentIndex: Int, committed: Bool }
        let seen = Mutex<Seen?>(nil)
        await navigator.show(2, position: 1, at: instant, playing: true) {
            // Reads do not wait for the operation under way (this one).
            let snapshot = navigator.snapshot
            let index = await navigator.currentIndex
            let committed = events.all.contains(.transitionCommitted(from: 0, to: 2))
            seen.withLock {
                $0 = Seen(current: snapshot.current?.index, neighbour: snapshot.neighbour?.index,
                          prerolled: snapshot.neighbour?.player?.isPrerolling == false, currentIndex: index, committed: committed)
            }
        }
        #expect(seen.withLock { $0 } == Seen(current: 0, neighbour: 2, prerolled: true, currentIndex: 0, committed: false),
                "prepared comes with the target prerolled as the neighbour, the old story still current")
        #expect(clock.now() >= instant, "the switch waits for the instant")
        #expect(await navigator.currentIndex == 2)
        let second = try #require(await navigator.currentPlayer)
        // The player leaves its preroll at the instant on its own thread: wait for it to say so.
        let deadline = clock.now() + 30
        while second.state == .paused, clock.now() < deadline { await Task.yield() }
        // Playing (or, on a machine slow enough, already at the end of the short clip).
        #expect([.playing, .ended].contains(second.state) && second.position > 0.5,
                "from 1 s, not from the start: \(second.state) at \(second.position)")
        #expect(first.state == .closed)
        #expect(await events.wait { $0 == .transitionCommitted(from: 0, to: 2) } != nil)

        // The current story is only re-positioned.
        await navigator.show(2, position: 0.5, at: clock.now(), playing: false)
        #expect(await navigator.currentPlayer === second)
        #expect(second.state == .paused)
        await navigator.close()
    }
}
