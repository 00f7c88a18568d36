import PlayerCore
import PropertyBased
import Testing
@testable import StoryKit

/// The navigator's promise: whatever is done to it, in whatever order and however fast, never more
/// than two players (and their pipeline threads) are alive, and stopping frees them all.
@Suite struct TwoPlayerBudgetTests {
    enum Operation: CustomStringConvertible {
        case next, previous, jump(Int), beginForward, beginBackward, beginTo(Int), progress(Double),
             commit, cancel, play, pause, stop

        /// One operation from a number, so the generator is a plain integer array (and shrinks).
        init(_ code: Int) {
            let argument = code / 16
            switch code % 16 {
            case 0, 1: self = .next
            case 2: self = .previous
            case 3: self = .jump(argument % 6 - 1)
            case 4, 5: self = .beginForward
            case 6: self = .beginBackward
            case 7: self = .beginTo(argument % 6)
            case 8: self = .progress(Double(argument % 11) / 10)
            case 9, 10: self = .commit
            case 11, 12: self = .cancel
            case 13: self = .play
            case 14: self = .pause
            default: self = .stop
            }
        }

        func apply(to navigator: StoryNavigator) async {
            switch self {
            case .next: await navigator.next()
            case .previous: await navigator.previous()
            case .jump(let i): await navigator.jump(to: i)
            case .beginForward: await navigator.begin(.forward)
            case .beginBackward: await navigator.begin(.backward)
            case .beginTo(let i): await navigator.begin(to: i)
            case .progress(let f): await navigator.setTransitionProgress(f)
            case .commit: await navigator.commit()
            case .cancel: await navigator.cancel()
            case .play: await navigator.play()
            case .pause: await navigator.pause()
            case .stop: await navigator.stop()
            }
        }

        var description: String {
            switch self {
            case .next: "next"
            case .previous: "prev"
            case .jump(let i): "jump:\(i)"
            case .beginForward: "begin>"
            case .beginBackward: "begin<"
            case .beginTo(let i): "begin:\(i)"
            case .progress(let f): "progress:\(f)"
            case .commit: "commit"
            case .cancel: "cancel"
            case .play: "play"
            case .pause: "pause"
            case .stop: "stop"
            }
        }
    }

    /// Operations one after another, checking the census after each.
    @Test func neverMoreThanTwoPlayersInSequence() async {
        await propertyCheck(count: 12, input: Gen.int(in: 0...255).array(of: 1...24)) { codes in
            let operations = codes.map(Operation.init)
            let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.lightOptions())
            for operation in operations {
                await operation.apply(to: navigator)
                let census = await navigator.census
                #expect(census.players <= 2, "after \(operations)")
                #expect(census.threads <= 2 * 3, "a video-only player runs 3 pipeline threads")
            }
            await navigator.stop()
            let census = await navigator.census
            #expect(census.players == 0 && census.threads == 0, "stop frees everything after \(operations)")
            #expect(census.peakPlayers <= 2, "peak \(census.peakPlayers) after \(operations)")
            #expect(await navigator.leakedThreads == 0)
            await navigator.close()
        }
    }

    /// The same operations fired all at once from many tasks (rapid swipes, taps and cancels).
    @Test func neverMoreThanTwoPlayersUnderConcurrentCalls() async {
        await propertyCheck(count: 8, input: Gen.int(in: 0...255).array(of: 4...32)) { codes in
            let operations = codes.map(Operation.init)
            let navigator = StoryNavigator(stories: StoryFixtures.stories, options: StoryFixtures.lightOptions())
            await navigator.play()
            await withTaskGroup(of: Void.self) { group in
                for operation in operations { group.addTask { await operation.apply(to: navigator) } }
            }
            let peak = await navigator.peakLivePlayers
            #expect(peak <= 2, "peak \(peak) after \(operations)")
            await navigator.close()
            let census = await navigator.census
            let leaked = await navigator.leakedThreads
            #expect(census.players == 0 && census.threads == 0 && leaked == 0)
        }
    }
}
