import FFmpegKit
import Foundation
import PlayerCore
import SoundOutput
import Synchronization

/// The sinks of a story list's players, one picture sink per story index (at most two are in use at
/// once), and one sound device they share (their samples are mixed: some drivers allow a single
/// open device, and the neighbour is silent until it plays anyway).
public final class StorySinks: Sendable {
    private struct State {
        var video: [Int: WindowVideoSink] = [:]
    }

    private let state = Mutex(State())
    private let urls: [String]
    /// The sound output the players share.
    public let sound: SharedSound
    private let subtitles: @Sendable (Int) -> SubtitleOptions?

    /// - Parameters:
    ///   - sound: the outputs to try (`--ao`) and the audio delay; `--ao=null` plays muted, paced.
    ///   - subtitles: the subtitles of story `index`'s player, drawn onto its pictures as `tandem
    ///     play` draws them (nil: none). In a party each member chooses its own track.
    public init(urls: [String], sound: SoundOptions, subtitles: @escaping @Sendable (Int) -> SubtitleOptions? = { _ in nil },
                warn: @escaping @Sendable (String) -> Void) {
        self.urls = urls
        self.sound = SharedSound(sound, warn: warn)
        self.subtitles = subtitles
    }

    /// Options for the player of story `index`: a fresh picture sink (rotated as the file says),
    /// an input of the shared sound device, and the subtitles chosen for it.
    public func playerOptions(for index: Int) -> PlayerOptions {
        let geometry = urls.indices.contains(index) ? DisplayGeometry(probing: urls[index]) : nil
        let video = WindowVideoSink(rotation: geometry.map { Double($0.quarterTurns * 90) } ?? 0)
        state.withLock { $0.video[index] = video }
        var options = PlayerOptions(videoSink: video, audioSink: sound.sink())
        options.subtitles = subtitles(index)
        return options
    }

    /// Closes the sound output (after the players are closed).
    public func close() { sound.close() }

    public func video(for index: Int) -> WindowVideoSink? { state.withLock { $0.video[index] } }

    public var volume: Int { sound.volume }
    public var muted: Bool { sound.muted }

    /// Volume and mute for every player, now and later.
    public func setLevels(volume: Int? = nil, muted: Bool? = nil) { sound.setLevels(volume: volume, muted: muted) }

    /// Forgets the sinks of stories other than `keep` (their players are closed).
    public func retain(_ keep: Set<Int>) {
        state.withLock { s in
            s.video = s.video.filter { keep.contains($0.key) }
        }
    }
}

extension StorySinks {
    /// The keys that act on the window and the shared sound, not on a player: screenshot,
    /// fullscreen, mute, volume and audio delay (the same in a story list and in a party).
    @WindowActor
    public func handleLocal(_ command: WindowCommand, window: PlayerWindow, toast: (String) -> Void) {
        switch command {
        case .screenshot: toast(window.screenshotMessage())
        case .toggleFullscreen: window.toggleFullscreen()
        case .toggleMute: setLevels(muted: !muted)
        case .volume(let points): setLevels(volume: volume + points)
        case .audioDelay(let step): toast(audioDelayMessage(sound.adjustAudioDelay(by: step)))
        default: break
        }
    }
}
