import Foundation
import PlayerCore
import SoundOutput

/// Plays one ``Player`` in a window with mpv's keys: the controller `tandem play` uses.
///
/// Seeks from the arrow keys are accurate (the first picture shown is the one at the target, as
/// `ffmpeg -ss` gives): a keyframe seek "5 s back" can land 10 s back, and "5 s on" can land where
/// it started when keyframes are far apart; accurate seeks cost one GOP of decoding. Seeks made
/// while one is running count from its target (holding → moves on steadily, as in mpv).
@WindowActor
public final class PlayerWindowController: WindowController, PlaybackInputHandling {
    /// After the last picture, the window stays at most this long waiting for the clock to reach
    /// the end of the media (so the last frame is seen for its duration, then the window ends).
    static let endGrace = 1.0

    public let player: Player
    public let video: WindowVideoSink?
    public let audio: (any SoundDevice)?
    /// Where Ctrl+−/Ctrl++ keep the device's audio delay.
    public var audioDelayMemory: (any AudioDelayMemory)?
    /// Stop the window at the end of the file (mpv without `--keep-open`).
    public var stopsAtEnd = true
    /// Called once when the user quits (q, Esc, closing the window).
    public var onQuit: (() -> Void)?
    public private(set) var quit = false
    /// Where `s` saves screenshots; nil: the current folder.
    public var screenshotDirectory: String?
    /// Shift+Q quit: the position should be remembered for the next run (mpv's watch-later).
    public private(set) var remembersPosition = false
    /// `<`/`>` move in a playlist (`tandem play A B C`): they set ``playlistStep`` and end the window's loop.
    public var hasPlaylist = false
    /// The move `<` (−1) or `>` (+1) asked for when it ended the window's loop; nil otherwise.
    public private(set) var playlistStep: Int?
    private var queue = ToastQueue()
    public var toasts: [Toast] { queue.toasts }
    /// The pending seek's target: positions are shown from it, and further seeks count from it.
    public private(set) var seekTarget: Double?
    private var seekSerial = 0
    private var endedAt: Double?
    /// Volume and mute when there is no sound device (shown, not heard).
    private var levels = (volume: 100, muted: false)
    private let clock = MonotonicTimeSource()

    public init(player: Player, video: WindowVideoSink?, audio: (any SoundDevice)?) {
        self.player = player
        self.video = video
        self.audio = audio
    }

    public func scene(in window: PlayerWindow) -> WindowScene {
        let state = player.state
        if stopsAtEnd, state == .ended || state == .closed { stopAtEnd(window, closed: state == .closed) }
        return WindowScene(primary: video, position: seekTarget ?? player.position, duration: player.duration,
                           toasts: toasts, paused: state == .paused,
                           volume: audio?.volume ?? levels.volume, muted: audio?.muted ?? levels.muted)
    }

    public func handle(_ command: WindowCommand, window: PlayerWindow) {
        switch command {
        case .togglePause:
            if player.state == .playing { player.pause() } else { player.play() }
        case .seek(let delta):
            seek(by: delta)
        case .step:
            player.step()
        case .goLive:
            toast("The live edge (End) is a party's: tandem play reads a live stream at its edge already")
        case .screenshot:
            if let screenshotDirectory {
                do {
                    let path = try window.saveScreenshot(in: screenshotDirectory)
                    toast("Screenshot: \((path as NSString).lastPathComponent)")
                } catch {
                    toast("Screenshot failed: \(error)")
                }
            } else {
                toast(window.screenshotMessage())
            }
        case .toggleFullscreen:
            window.toggleFullscreen()
        case .toggleMute:
            if let audio { audio.setMuted(!audio.muted) } else { levels.muted.toggle() }
        case .volume(let points):
            if let audio { audio.adjustVolume(by: points) } else { levels.volume = min(max(levels.volume + points, 0), 100) }
        case .audioDelay(let step):
            if let audio {
                toast(audioDelayMessage(SoundDevices.adjustAudioDelay(audio, by: step, memory: audioDelayMemory)))
            } else {
                toast("No sound output")
            }
        case .cycleSubtitles, .toggleSubtitles, .subtitleDelay, .cycleAudio:
            toast(TrackCommands.apply(command, to: player))
        case .previousStory, .nextStory:
            // One file: nothing before or after it (mpv ignores them at the ends of a playlist).
            guard hasPlaylist else { break }
            playlistStep = command == .nextStory ? 1 : -1
            window.stop()
        case .quit:
            guard !quit else { return }
            quit = true
            onQuit?()
            window.stop()
        }
    }

    public func handle(_ key: PlaybackKey, window: PlayerWindow) {
        switch key {
        case .scaleSpeed(let factor):
            setSpeed(player.rate * factor)
        case .resetSpeed:
            setSpeed(1)
        case .leaveFullscreen:
            if window.isFullscreen { window.toggleFullscreen() }
        case .quitRememberingPosition:
            remembersPosition = true
            handle(.quit, window: window)
        }
    }

    public func handle(_ gesture: MouseGesture, window: PlayerWindow) {
        switch gesture {
        case .seekToFraction(let fraction):
            guard let duration = player.duration, duration > 0 else { return }
            seek(to: fraction * duration)
        case .seek(let delta):
            seek(by: delta)
        case .toggleFullscreen:
            window.toggleFullscreen()
        }
    }

    private func setSpeed(_ rate: Double) {
        let rate = min(max(rate, Player.rateRange.lowerBound), Player.rateRange.upperBound)
        player.setRate(rate)
        toast(String(format: "Speed: %.2f", rate))
    }

    /// Forgets the last ``playlistStep`` (the playlist stayed on this file), to run the window again.
    public func clearPlaylistStep() { playlistStep = nil }

    /// Shows `text` for a few seconds.
    public func toast(_ text: String) { queue.post(text) }

    private func seek(by delta: Double) { seek(to: (seekTarget ?? player.position) + delta) }

    private func seek(to position: Double) {
        var target = max(0, position)
        if let duration = player.duration { target = min(target, duration) }
        seekTarget = target
        seekSerial += 1
        let serial = seekSerial
        let player = player
        Task {
            await player.seek(to: target, accurate: true)
            if serial == self.seekSerial { self.seekTarget = nil }
        }
    }

    private func stopAtEnd(_ window: PlayerWindow, closed: Bool) {
        let now = clock.now()
        let endedAt = self.endedAt ?? now
        self.endedAt = endedAt
        if closed || player.position >= player.stats.endPosition - 0.001 || now - endedAt >= Self.endGrace {
            window.stop()
        }
    }
}
