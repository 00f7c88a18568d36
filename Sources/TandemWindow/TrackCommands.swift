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
            let tracks = player.audioTracks
            guard tracks.count > 1 else { return "Audio: " + (tracks.first?.label ?? "no") }
            // A player decodes one audio stream from its opening on; choose with --aid/--alang.
            return "Audio: switching tracks while playing is not supported (use --aid or --alang)"
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
