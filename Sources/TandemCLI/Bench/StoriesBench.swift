import TandemBench
import TandemApp
import ArgumentParser
import FFmpegKit
import Foundation
import PlayerCore
import StoryKit

extension BenchCommand {
    /// `tandem bench stories A B`: swipe latency and the memory budget of the story navigator.
    struct Stories: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Story transitions: commit→first frame against the frame interval, cold start against a plain open, peak memory of two players against one, memory over many transitions.")
        @Argument(help: "Two clips (alternated in the story list).") var files: [String]
        @Option var runs = 20
        @Option(help: "Transitions for the memory-growth run.") var transitions = 1000

        func validate() throws {
            guard files.count == 2 else { throw ValidationError("give two clips") }
        }

        func run() async throws {
            FFmpegLog.configure()
            try await swipes()
            try await coldStarts()
            try memory()
        }

        /// Headless players: pictures to nowhere, audio paced in real time.
        static func options() -> StoryNavigator.Options {
            var options = StoryNavigator.Options()
            options.autoAdvance = false
            options.playerOptions = { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: NullAudioSink(realTime: true)) }
            return options
        }

        static func list(_ files: [String], count: Int = 6) -> [Story] { (0..<count).map { Story(url: files[$0 % files.count]) } }

        /// begin → neighbour ready → commit: time until the new story's picture is the one shown,
        /// and until the next picture, against the clip's frame interval.
        private func swipes() async throws {
            let clock = MonotonicTimeSource()
            var toShown: [Double] = [], toNext: [Double] = [], intervals: [Double] = []
            for _ in 0..<runs {
                let navigator = StoryNavigator(stories: Self.list(files, count: 2), options: Self.options())
                await navigator.play()
                await navigator.currentPlayer?.waitUntilReady()
                guard await navigator.begin(.forward), let neighbour = await navigator.neighbourPlayer else { throw BenchError("no neighbour") }
                await neighbour.waitUntilReady()
                let frames = neighbour.events(frames: true)
                let fps = neighbour.info.streams.first { $0.type == .video }?.frameRate ?? 25
                // When the UI learns that the new story's picture is the one to show.
                let storyEvents = navigator.events()
                let shown = Task {
                    for await event in storyEvents { if case .firstFrame(1, _) = event { return clock.now() } }
                    return Double.nan
                }
                let start = clock.now()
                await navigator.commit()
                toShown.append(await shown.value - start)
                for await event in frames {
                    if case .framePresented(_, let host) = event, host > start { toNext.append(host - start); break }
                }
                intervals.append(1 / fps)
                await navigator.close()
            }
            let interval = median(intervals)
            report("swipe commit on a prepared neighbour (\(runs) runs, medians, seconds; reference: one frame interval)", [
                ("commit → its first picture shown", median(toShown), interval),
                ("commit → its next picture", median(toNext), interval),
                ("worst commit → first picture shown", toShown.max() ?? .nan, interval),
            ])
        }

        /// A jump with no neighbour opened, against opening the same clip as `tandem play` does,
        /// alternately in this process.
        private func coldStarts() async throws {
            let clock = MonotonicTimeSource()
            var mine: [Double] = [], theirs: [Double] = []
            for run in 0..<runs {
                let file = files[run % 2]
                let navigator = StoryNavigator(stories: [Story(url: files[(run + 1) % 2]), Story(url: file)], options: Self.options())
                let events = navigator.events()
                let jumped = clock.now()
                await navigator.jump(to: 1)
                for await event in events { if case .firstFrame(1, _) = event { mine.append(clock.now() - jumped); break } }
                await navigator.close()

                let start = clock.now()
                let player = try await Player.open(file, options: Self.options().playerOptions(0))
                let playerEvents = player.events()
                player.play()
                for await event in playerEvents { if case .firstFrame(_, let host) = event { theirs.append(host - start); break } }
                await player.close()
            }
            report("cold start: jump to a story with no neighbour vs. Player.open→first frame (\(runs) alternate runs, medians, seconds)", [
                ("open → first frame", median(mine), median(theirs)),
            ])
        }

        /// Peak RSS of fresh processes: no player, one player, two live players (a swipe held open),
        /// and resident memory over many transitions.
        private func memory() throws {
            // The child reports its own VmHWM: wait4's ru_maxrss of a spawned child starts from the
            // parent's RSS (Linux carries the high-water mark across exec), and this parent is big.
            func peak(_ mode: String) throws -> Double {
                let usage = try ChildProcess.run([BenchCommand.selfPath, "bench", "stories-memory", "--mode", mode] + files)
                try check(usage, "stories-memory \(mode)")
                guard let line = usage.stdout.split(separator: "\n").first(where: { $0.hasPrefix("hwm ") }),
                      let bytes = Double(line.dropFirst(4)) else { throw BenchError("stories-memory \(mode) printed no hwm") }
                return bytes / 1048576
            }
            var none: [Double] = [], one: [Double] = [], two: [Double] = []
            for _ in 0..<3 {
                none.append(try peak("none"))
                one.append(try peak("one"))
                two.append(try peak("two"))
            }
            let (n, o, t) = (median(none), median(one), median(two))
            report("peak RSS, fresh processes (3 runs each, medians, MiB)", [
                ("two live players vs. one player × 2 + 10 MB", t, 2 * o + 10),
                ("two live players' increment vs. 2 × one player's increment", t - n, 2 * (o - n)),
            ])
            let churn = try ChildProcess.run([BenchCommand.selfPath, "bench", "stories-memory", "--mode", "churn",
                                              "--transitions", String(transitions)] + files)
            try check(churn, "stories-memory churn")
            let readings = churn.stdout.split(separator: "\n").compactMap { line -> (Int, Double)? in
                let parts = line.split(separator: " ")
                guard parts.count == 3, parts[0] == "rss", let n = Int(parts[1]), let bytes = Double(parts[2]) else { return nil }
                return (n, bytes / 1048576)
            }
            guard let early = readings.first else { throw BenchError("churn printed no readings") }
            report("resident memory over \(transitions) transitions (MiB; reference: after the first \(early.0))",
                   readings.dropFirst().map { ("RSS after \($0.0) transitions", $0.1, early.1) })
        }
    }

    /// A process for one memory reading of `bench stories` (its peak RSS is read by the parent).
    struct StoriesMemory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stories-memory", shouldDisplay: false)
        @Option var mode: String
        @Option var transitions = 1000
        @Argument var files: [String]
        /// Long enough for the pipelines to fill their queues.
        static let settle = Duration.seconds(2)

        func run() async throws {
            FFmpegLog.configure()
            switch mode {
            case "none":
                try await Task.sleep(for: Self.settle)
            case "one":
                let player = try await Player.open(files[0], options: Stories.options().playerOptions(0))
                player.play()
                try await Task.sleep(for: Self.settle)
                await player.close()
            case "two":
                // The same clip twice, so the figure compares with "one".
                let navigator = StoryNavigator(stories: Stories.list([files[0]], count: 2), options: Stories.options())
                await navigator.play()
                await navigator.begin(.forward)
                try await Task.sleep(for: Self.settle)
                await navigator.close()
            case "churn":
                let navigator = StoryNavigator(stories: Stories.list(files), options: Stories.options())
                await navigator.play()
                let every = max(1, transitions / 10)
                for n in 1...transitions {
                    let index = await navigator.currentIndex
                    await navigator.jump(to: (index + 1) % 6)
                    await navigator.currentPlayer?.waitUntilReady()
                    if n % every == 0 || n == transitions { print("rss \(n) \(ProcessMemory.resident())") }
                }
                await navigator.close()
            default:
                throw ValidationError("mode: none, one, two or churn")
            }
            print("hwm \(ProcessMemory.peakResident())")
        }
    }
}
