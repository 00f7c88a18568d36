import PlayerCore

/// Whether a live item's moment was still in the stream when a member opened it. A live playlist
/// keeps only its last segments: a member that joins a party whose moment has slid out of that
/// window (a long pause, a slow joiner) can only show the stream from later on, and says so
/// plainly instead of showing a frozen picture without a word.
enum LiveWindow {
    /// A first picture this much after the party's moment means the moment is gone from the stream.
    /// An accurate seek inside the window lands on the first frame at or after its target (a frame
    /// late, 40 ms at 25 fps); whole seconds late means the segments are no longer there, and a
    /// second is still less than the shortest HLS segment in common use.
    static let goneThreshold = 1.0

    /// How a member opens a live item: at the first segment its playlist lists (libavformat's
    /// default is 3 from the end, the live edge). libavformat's hls demuxer cannot seek back before
    /// where it entered a live playlist, so a member entering at the edge could never show a party's
    /// moment a little behind it (a member joining after the host entered seconds later than the
    /// host's origin: measured 1.3–2 s late). Entering at the window's start puts the party's moment
    /// ahead of it, reached by decoding forward (an accurate seek drops the frames before it): the
    /// whole window is read once at the join, which is what the window is there for.
    static let openOptions = ["live_start_index": "0"]

    /// The line to show when the first picture (at `firstPicture`) came `goneThreshold` or more after
    /// the party's moment (`moment`, both party positions); nil when the moment was there.
    static func note(moment: Double, firstPicture: Double) -> String? {
        let late = firstPicture - moment
        guard late >= goneThreshold else { return nil }
        return String(format: "the party's moment (%.1f s) has left the live stream's window: showing it from %.1f s, %.1f s later",
                      moment, firstPicture, late)
    }

    /// The position of `player`'s first picture since it opened (nil: it closed before one).
    static func firstPicture(of player: Player) async -> Double? {
        for await event in player.events() {
            if case .firstFrame(let position, _) = event { return position }
        }
        return nil
    }
}
