import Foundation
import Synchronization
import TestSupport
import PlayerCore
import StoryKit

/// The bundled clips as stories, and helpers to wait on navigator events.
enum StoryFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func asset(_ name: String) -> String { root.appendingPathComponent("assets").appendingPathComponent(name).path }

    /// Short clips with video (2–4 s each).
    static let clips = ["h264-aac.mp4", "vp9-opus.webm", "video-only.mp4", "odd-dims.mp4", "10bit.mkv"]
    static var stories: [Story] { clips.map { Story(url: asset($0)) } }

    /// Headless players: no picture output, audio paced in real time without a device.
    static func options(autoAdvance: Bool = false) -> StoryNavigator.Options {
        var options = StoryNavigator.Options()
        options.autoAdvance = autoAdvance
        options.playerOptions = { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: NullAudioSink(realTime: true)) }
        return options
    }

    /// Video only, no pacing thread for sound: the lightest real players, for tests that open hundreds.
    static func lightOptions() -> StoryNavigator.Options {
        var options = options()
        options.playerOptions = { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) }
        return options
    }

    /// Collects events in the background so a test can wait for one.
    final class Recorder: Sendable {
        private let events = Mutex<[StoryEvent]>([])

        /// Records `stream` until it finishes (the navigator closes).
        static func start(_ stream: AsyncStream<StoryEvent>) -> Recorder {
            let recorder = Recorder()
            Task { for await event in stream { recorder.events.withLock { $0.append(event) } } }
            return recorder
        }

        var all: [StoryEvent] { events.withLock { $0 } }

        /// Waits (up to `timeout` seconds) until an event matches.
        func wait(timeout: Double = defaultBound, for match: (StoryEvent) -> Bool) async -> StoryEvent? {
            var hit: StoryEvent?
            _ = await eventually(within: timeout) { hit = all.first(where: match); return hit != nil }
            return hit
        }
    }
}
