import Foundation
import PlayerCore

/// The track keys (j/J, v, z/x, #) on one player, with mpv's OSD messages. The same in a single
/// file's window, a story list and a party (where the choice stays each member's own).
public enum TrackCommands {
    /// Carries out `command` on `player`; returns the message to show.
    @discardableResult
    public static func apply(_ command: WindowCommand, to player: Player) -> String {
        switch command {
        case .cycleSubtitles(let forward):
            let tracks = player.subtitleTracks
            guard !tracks.isEmpty else { return "Subtitles: no" }
            let id = next(after: player.subtitleTrack, ids: tracks.map(\.id), forward: forward)
            player.selectSubtitleTrack(id)
            return "Subtitles: " + (tracks.first { $0.id == id }?.label ?? "no")
        case .toggleSubtitles:
            player.setSubtitlesVisible(!player.subtitlesVisible)
            return player.subtitlesVisible ? "Subtitles visible" : "Subtitles hidden"
        case .subtitleDelay(let step):
            // Rounded to the step so repeated presses never show 0.30000000000000004.
            let delay = ((player.subtitleDelay + step) * 1000).rounded() / 1000
            player.setSubtitleDelay(delay)
            return "Sub delay: \(Int((delay * 1000).rounded())) ms"
        case .cycleAudio:
            // mpv's `#` cycles the tracks (through "no" as well; here a player opened with sound
            // keeps one: its output stays open).
            let tracks = player.audioTracks
            guard let current = player.audioTrack, tracks.count > 1 else {
                return "Audio: " + (player.audioTrack.flatMap { id in tracks.first { $0.id == id }?.label } ?? "no")
            }
            let ids = tracks.map(\.id)
            let next = ids[((ids.firstIndex(of: current) ?? 0) + 1) % ids.count]
            do {
                try player.selectAudioTrack(next)
            } catch {
                return "Audio: \(error.reason)"
            }
            return "Audio: " + (tracks.first { $0.id == next }?.label ?? "\(next)")
        default:
            return ""
        }
    }

    /// mpv's cycle through `ids` with "none" (nil) between the last and the first.
    static func next(after current: Int?, ids: [Int], forward: Bool) -> Int? {
        let ring: [Int?] = [nil] + ids.map { Optional($0) }
        let index = ring.firstIndex(of: current) ?? 0
        return ring[(index + (forward ? 1 : ring.count - 1)) % ring.count]
    }
}
