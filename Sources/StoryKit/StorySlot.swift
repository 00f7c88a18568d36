import FFmpegKit
import PlayerCore

/// One story held by the navigator: its player (nil when it failed to open), whether its first
/// picture is out, and the poster that stands in until then.
struct StorySlot: Sendable {
    /// Distinguishes a slot from a later one of the same story (events of a closed player are stale).
    let id: Int
    let index: Int
    let player: Player?
    let error: OpenError?
    var ready = false
    var poster: Poster?
    /// Host time of the tap or jump that asked for it, or of the swipe's commit: the first-frame
    /// latency counts from there.
    var becameCurrent: Double?

    init(id: Int, index: Int, player: Player?, error: OpenError?) {
        self.id = id
        self.index = index
        self.player = player
        self.error = error
    }
}
