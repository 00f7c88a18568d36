import FFmpegKit
import Foundation
import PlayerCore
import Synchronization

/// The sinks of a story list's players, one set per story index (at most two are in use at once):
/// what the navigator's players draw and play into, and what the window finds them by.
public final class StorySinks: Sendable {
    private struct State {
        var video: [Int: WindowVideoSink] = [:]
        var audio: [Int: SDLAudioSink] = [:]
        var volume = 100
        var muted = false
        /// Set once a sound device failed: the rest play muted without trying again.
        var noSound = false
    }

    private let state = Mutex(State())
    private let urls: [String]
    private let sound: Bool
    private let warn: @Sendable (String) -> Void

    /// `sound`: open a sound device per player (else muted, paced without one).
    public init(urls: [String], sound: Bool, warn: @escaping @Sendable (String) -> Void) {
        self.urls = urls
        self.sound = sound
        self.warn = warn
    }

    /// Options for the player of story `index`: a fresh picture sink (rotated as the file says)
    /// and a sound device at the current volume.
    public func playerOptions(for index: Int) -> PlayerOptions {
        let geometry = urls.indices.contains(index) ? DisplayGeometry(probing: urls[index]) : nil
        let video = WindowVideoSink(rotation: geometry.map { Double($0.quarterTurns * 90) } ?? 0)
        let levels = state.withLock { s in
            s.video[index] = video
            return (s.volume, s.muted, s.noSound)
        }
        var audio: SDLAudioSink?
        if sound, !levels.2 {
            do {
                audio = try SDLAudioSink(volume: levels.0, muted: levels.1)
            } catch {
                state.withLock { $0.noSound = true }
                warn("no sound device (\(error)): playing muted")
            }
        }
        state.withLock { $0.audio[index] = audio }
        return PlayerOptions(videoSink: video, audioSink: audio ?? NullAudioSink(realTime: true))
    }

    public func video(for index: Int) -> WindowVideoSink? { state.withLock { $0.video[index] } }

    public var volume: Int { state.withLock { $0.volume } }
    public var muted: Bool { state.withLock { $0.muted } }

    /// Volume and mute for every player, now and later.
    public func setLevels(volume: Int? = nil, muted: Bool? = nil) {
        let sinks = state.withLock { s -> [SDLAudioSink] in
            if let volume { s.volume = min(max(volume, 0), 100) }
            if let muted { s.muted = muted }
            return Array(s.audio.values)
        }
        let (v, m) = state.withLock { ($0.volume, $0.muted) }
        for sink in sinks {
            sink.setVolume(v)
            sink.setMuted(m)
        }
    }

    /// Forgets the sinks of stories other than `keep` (their players are closed).
    public func retain(_ keep: Set<Int>) {
        state.withLock { s in
            s.video = s.video.filter { keep.contains($0.key) }
            s.audio = s.audio.filter { keep.contains($0.key) }
        }
    }
}
