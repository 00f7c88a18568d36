import FFmpegKit
import Foundation
import PlayerCore
import Synchronization

/// The sinks of a story list's players, one picture sink per story index (at most two are in use at
/// once), and one sound device they share (their samples are mixed: some drivers allow a single
/// open device, and the neighbour is silent until it plays anyway).
public final class StorySinks: Sendable {
    private struct State {
        var video: [Int: WindowVideoSink] = [:]
        /// Opened with the first player that needs it.
        var device: SDLAudioSink?
        var volume = 100
        var muted = false
        /// Set once a sound device failed: the rest play muted without trying again.
        var noSound = false
    }

    private let state = Mutex(State())
    private let urls: [String]
    private let sound: Bool
    private let warn: @Sendable (String) -> Void
    private let subtitles: @Sendable (Int) -> SubtitleOptions?

    /// - Parameters:
    ///   - sound: open a sound device per player (else muted, paced without one).
    ///   - subtitles: the subtitles of story `index`'s player, drawn onto its pictures as `tandem
    ///     play` draws them (nil: none). In a party each member chooses its own track.
    public init(urls: [String], sound: Bool, subtitles: @escaping @Sendable (Int) -> SubtitleOptions? = { _ in nil },
                warn: @escaping @Sendable (String) -> Void) {
        self.urls = urls
        self.sound = sound
        self.subtitles = subtitles
        self.warn = warn
    }

    /// Options for the player of story `index`: a fresh picture sink (rotated as the file says),
    /// an input of the shared sound device, and the subtitles chosen for it.
    public func playerOptions(for index: Int) -> PlayerOptions {
        let geometry = urls.indices.contains(index) ? DisplayGeometry(probing: urls[index]) : nil
        let video = WindowVideoSink(rotation: geometry.map { Double($0.quarterTurns * 90) } ?? 0)
        state.withLock { $0.video[index] = video }
        var options = PlayerOptions(videoSink: video, audioSink: soundDevice()?.input() ?? NullAudioSink(realTime: true))
        options.subtitles = subtitles(index)
        return options
    }

    /// The shared device, opened on first use; nil (after one warning) when there is none.
    private func soundDevice() -> SDLAudioSink? {
        guard sound else { return nil }
        let (existing, levels) = state.withLock { s in (s.noSound ? nil : s.device, (s.volume, s.muted, s.noSound)) }
        if let existing { return existing }
        guard !levels.2 else { return nil }
        do {
            let device = try SDLAudioSink(volume: levels.0, muted: levels.1)
            let winner = state.withLock { s -> SDLAudioSink in
                if let other = s.device { return other }
                s.device = device
                return device
            }
            if winner !== device { device.stop() }
            return winner
        } catch {
            state.withLock { $0.noSound = true }
            warn("no sound device (\(error)): playing muted")
            return nil
        }
    }

    /// Closes the sound device (after the players are closed).
    public func close() {
        state.withLock { s in defer { s.device = nil }; return s.device }?.stop()
    }

    public func video(for index: Int) -> WindowVideoSink? { state.withLock { $0.video[index] } }

    public var volume: Int { state.withLock { $0.volume } }
    public var muted: Bool { state.withLock { $0.muted } }

    /// Volume and mute for every player, now and later.
    public func setLevels(volume: Int? = nil, muted: Bool? = nil) {
        let (device, v, m) = state.withLock { s -> (SDLAudioSink?, Int, Bool) in
            if let volume { s.volume = min(max(volume, 0), 100) }
            if let muted { s.muted = muted }
            return (s.device, s.volume, s.muted)
        }
        device?.setVolume(v)
        device?.setMuted(m)
    }

    /// Forgets the sinks of stories other than `keep` (their players are closed).
    public func retain(_ keep: Set<Int>) {
        state.withLock { s in
            s.video = s.video.filter { keep.contains($0.key) }
        }
    }
}

extension StorySinks {
    /// The keys that act on the window and the shared sound, not on a player: screenshot,
    /// fullscreen, mute and volume (the same in a story list and in a party).
    @WindowActor
    public func handleLocal(_ command: WindowCommand, window: PlayerWindow, toast: (String) -> Void) {
        switch command {
        case .screenshot: toast(window.screenshotMessage())
        case .toggleFullscreen: window.toggleFullscreen()
        case .toggleMute: setLevels(muted: !muted)
        case .volume(let points): setLevels(volume: volume + points)
        default: break
        }
    }
}
