import PartyKit

/// A live item's own commands and events: back to the hold behind the edge, and the stream's end.
extension PartyMember {
    /// The `live` command (End, `/live`, a script's `live`): everyone to the live item's hold behind
    /// the edge (``LiveOrigin/livePosition(from:readAhead:)``: what this member's player has read
    /// beyond its moment reaches the edge), asked as a seek; one line says why not otherwise.
    public func goLive() async {
        let shown = playback.snapshot
        guard let item = shown.item, let items = core.config?.items, items.indices.contains(item), let live = items[item].live,
              let player = shown.player else { return notices(.refused("not a live stream: End and /live bring a live party back to its edge")) }
        let readAhead = player.buffer.readAhead
        guard let target = live.livePosition(from: player.position, readAhead: readAhead) else {
            return notices(.media(String(format: "already at the live edge (LIVE −%.0fs)", readAhead.rounded())))
        }
        await request(.seek, value: target)
    }

    /// A live stream that ends (its playlist closed with `EXT-X-ENDLIST`, the broadcaster gone) has
    /// no duration the server could stop the party at, as it stops a file at its end: each member
    /// says so once, and the host pauses the party there, so nobody's clock counts on past the last
    /// picture. An item with a next one to advance to is left to that.
    func noteLiveEnd(_ shown: MemberPlayback.Snapshot) async {
        guard let item = shown.item, let items = core.config?.items, items.indices.contains(item), items[item].live != nil,
              shown.player?.state == .ended else {
            liveEndSaid = nil
            return
        }
        guard liveEndSaid != item, !(options.advanceAtEnd && item + 1 < items.count) else { return }
        liveEndSaid = item
        notices(.media("the live stream has ended"))
        if core.me?.role == .host, core.timeline?.playing == true { await request(.pause) }
    }
}
