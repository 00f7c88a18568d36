import Foundation
import PlayerCore
import SoundOutput
import StoryKit
import TandemWindow

/// Runs a stories session: prints events, plays the script, and ends on `.finished`, a `quit`
/// step, SIGINT, (without auto-advance) when the current story ends after the script, or, with a
/// window, when the window's loop ends (q, Esc, closing it, or the last story ending).
package struct StorySession: Sendable {
    package init(navigator: StoryNavigator, output: StoryEventOutput) {
        self.navigator = navigator
        self.output = output
    }

    /// How often the end condition is checked without auto-advance.
    package static let endPoll = Duration.milliseconds(50)

    package let navigator: StoryNavigator
    package let output: StoryEventOutput

    package struct Outcome {
        package var started = 0
        package var failedStories: Set<Int> = []
    }

    package func run(steps: [StoryScript.Step], stopWhenCurrentEnds: Bool, window: StoriesWindow? = nil) async -> Outcome {
        let events = navigator.events()
        let navigator = navigator
        let output = output
        let (done, finish) = AsyncStream<Void>.makeStream()
        let printer = Task {
            var outcome = Outcome()
            for await event in events {
                output.print(event)
                switch event {
                case .storyStarted: outcome.started += 1
                case .storyFailed(let index, _): outcome.failedStories.insert(index)
                case .finished: finish.yield()
                default: break
                }
            }
            return outcome
        }
        let interrupts = Task { await Signals.wait(); finish.yield() }
        await navigator.play()
        let scriptTask = Task {
            let start = ContinuousClock.now
            for step in steps {
                try? await Task.sleep(until: start + .seconds(step.at))
                if Task.isCancelled { return }
                if step.action == .quit { finish.yield(); return }
                await apply(step.action)
            }
            guard stopWhenCurrentEnds else { return }
            while !Task.isCancelled {
                if await navigator.currentPlayer?.state != .playing, await navigator.currentPlayer?.state != .paused {
                    finish.yield()
                    return
                }
                try? await Task.sleep(for: Self.endPoll)
            }
        }
        if let window {
            let windowDone = Task { await window.run(navigator); finish.yield() }
            for await _ in done { break }
            await window.stop()
            await windowDone.value
        } else {
            for await _ in done { break }
        }
        scriptTask.cancel()
        interrupts.cancel()
        await navigator.close()
        return await printer.value
    }

    private func apply(_ action: StoryScript.Action) async {
        switch action {
        case .next: await navigator.next()
        case .previous: await navigator.previous()
        case .jump(let index): await navigator.jump(to: index)
        case .begin(let direction): await navigator.begin(direction)
        case .progress(let fraction): await navigator.setTransitionProgress(fraction)
        case .commit: await navigator.commit()
        case .cancel: await navigator.cancel()
        case .play: await navigator.play()
        case .pause: await navigator.pause()
        case .stop: await navigator.stop()
        case .quit: break
        }
    }
}

/// The window of `tandem stories` without `--headless`: one SDL window for the whole list, a
/// picture and sound sink per story player, and the story keys of ``StoryWindowController``.
package struct StoriesWindow: Sendable {
    package let window: PlayerWindow
    package let sinks: StorySinks
    /// How a swipe moves the pictures (`--transition`).
    package var transition: StoryTransition = .slide

    /// `subtitles`: drawn onto each story's pictures (with same-named files next to a local story).
    package static func open(_ stories: [Story], subtitles: PartySubtitles = PartySubtitles(),
                     transition: StoryTransition = .slide, sound: SoundOptions = SoundOptions(),
                     videoSync: VideoSync = .audio) async throws(WindowError) -> StoriesWindow {
        let size = stories.lazy.compactMap { DisplayGeometry(probing: $0.url)?.displaySize }.first ?? WindowedPlayback.audioOnlySize
        let window = try await PlayerWindow(title: "Tandem stories", size: size.scaledUp(), videoSync: videoSync)
        let urls = stories.map(\.url)
        let sinks = StorySinks(urls: urls, sound: sound, subtitles: { index in
            subtitles.options(for: urls.indices.contains(index) ? urls[index] : nil)
        }, warn: { printError($0) })
        return StoriesWindow(window: window, sinks: sinks, transition: transition)
    }

    @WindowActor
    package func run(_ navigator: StoryNavigator) async {
        let controller = StoryWindowController(navigator: navigator, sinks: sinks)
        controller.transition = transition
        await window.run(controller: controller)
    }

    @WindowActor
    package func stop() { window.stop() }

    package func close() async {
        sinks.close()
        await window.close()
    }
}
