import Foundation
import PlayerCore
import StoryKit

/// Shows a ``StoryNavigator`` in a window: the current story, its poster until the first picture,
/// the segment indicator, and during a swipe both pictures side by side. `<` and `>` swipe (the
/// picture slides over ``slideDuration``), the other keys act on the current story as in mpv.
@WindowActor
public final class StoryWindowController: WindowController {
    /// How long a key's swipe takes on screen: the neighbour opens during it.
    public static let slideDuration = 0.25
    /// Frames of the slide animation per second (the window renders when progress changes).
    static let slideSteps = 12

    public let navigator: StoryNavigator
    public let sinks: StorySinks
    /// How a swipe moves the pictures.
    public var transition: StoryTransition = .slide
    /// Called once when the user quits.
    public var onQuit: (() -> Void)?
    public private(set) var quit = false
    /// Set when the last story ended (auto-advance finished): the window then closes.
    public private(set) var finished = false
    private var toasts = ToastQueue()
    /// A key's swipe is under way (further story keys are ignored until it ends).
    public private(set) var isSwiping = false
    /// The slide of a key's swipe, 0…1, while it runs: it does not wait for the neighbour's player
    /// to open (the navigator's own progress would, its requests being served in order).
    private var keySlide: Double?
    private var events: Task<Void, Never>?

    public init(navigator: StoryNavigator, sinks: StorySinks) {
        self.navigator = navigator
        self.sinks = sinks
        let stream = navigator.events()
        events = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                self.note(event)
            }
        }
    }

    isolated deinit { events?.cancel() }

    public func scene(in window: PlayerWindow) -> WindowScene {
        if finished || quit { window.stop() }
        let snapshot = navigator.snapshot
        let current = snapshot.current
        let neighbour = snapshot.neighbour
        let player = current?.player
        var slide = 0.0
        if let current, let neighbour {
            // A key's swipe slides on its own clock while the neighbour opens (its poster shows at
            // once); a swipe driven through the navigator shows the navigator's progress.
            slide = (neighbour.index > current.index ? 1 : -1) * (keySlide ?? snapshot.transitionProgress)
        }
        let indicator = snapshot.indicator
        var scene = WindowScene(
            primary: current.flatMap { sinks.video(for: $0.index) },
            secondary: neighbour.flatMap { sinks.video(for: $0.index) },
            slide: slide,
            poster: current.flatMap { $0.ready ? nil : $0.poster?.image },
            secondaryPoster: neighbour.flatMap { $0.ready ? nil : $0.poster?.image },
            position: player?.position ?? 0,
            duration: player?.duration,
            segments: StorySegments(index: indicator.index, count: indicator.count, progress: indicator.progress),
            status: current.map { "\($0.index + 1)/\(snapshot.count) · \($0.title)" },
            toasts: toasts.toasts,
            error: current?.error,
            paused: player?.state == .paused,
            volume: sinks.volume,
            muted: sinks.muted)
        scene.transition = transition
        return scene
    }

    public func handle(_ command: WindowCommand, window: PlayerWindow) {
        let navigator = navigator
        let player = navigator.snapshot.current?.player
        switch command {
        case .nextStory: swipe(.forward)
        case .previousStory: swipe(.backward)
        case .togglePause:
            Task { if player?.state == .playing { await navigator.pause() } else { await navigator.play() } }
        case .seek(let delta):
            if let player { Task { await player.seek(to: max(0, player.position + delta)) } }
        case .step:
            player?.step()
        case .goLive:
            toast("The live edge (End) is a live party's")
        case .screenshot, .toggleFullscreen, .toggleMute, .volume, .audioDelay:
            sinks.handleLocal(command, window: window, toast: toast)
        case .cycleSubtitles, .toggleSubtitles, .subtitleDelay, .cycleAudio:
            if let player { toast(TrackCommands.apply(command, to: player)) }
        case .quit:
            guard !quit else { return }
            quit = true
            onQuit?()
            window.stop()
        }
    }

    public func toast(_ text: String) { toasts.post(text) }

    /// A key's swipe: open the neighbour, slide it in, commit. A key during a swipe is ignored
    /// (as a finger already on the screen would be); at the first story `<` restarts it.
    private func swipe(_ direction: StoryNavigator.Direction) {
        guard !isSwiping else { return }
        isSwiping = true
        let navigator = navigator
        Task {
            defer {
                self.isSwiping = false
                self.keySlide = nil
            }
            // The neighbour opens (seconds over a slow network) while the slide runs: its poster,
            // loaded ahead, is what slides in.
            let began = Task { await navigator.begin(direction) }
            self.keySlide = 0
            let steps = Self.slideSteps
            for step in 1...steps {
                try? await Task.sleep(for: .seconds(Self.slideDuration / Double(steps)))
                self.keySlide = Double(step) / Double(steps)
            }
            guard await began.value else {
                if direction == .backward { await navigator.previous() }
                return
            }
            await navigator.setTransitionProgress(1)
            await navigator.commit()
            let keep = Set([navigator.snapshot.current?.index, navigator.snapshot.neighbour?.index].compactMap { $0 })
            self.sinks.retain(keep)
        }
    }

    private func note(_ event: StoryEvent) {
        switch event {
        case .storyFailed(let index, let reason):
            toast("Story \(index + 1) cannot play: \(reason)")
        case .finished:
            finished = true
        default:
            break
        }
    }
}
