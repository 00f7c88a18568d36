/// What makes a party item live (protocol 7; its ``delay``, protocol 8): the stream time its positions count from.
///
/// A live stream has no start every member shares: each player enters it wherever the stream is
/// when it opens (HLS: a few segments behind the live edge), and counting from there put members
/// who joined seconds apart at different moments of the stream (issue 27). A live item's position
/// is instead the stream's own timestamp (MPEG-TS PTS, in seconds) minus ``origin``, which the
/// host fixes once for the party — the first timestamp it saw — so position P is the same moment
/// of the stream for every member whenever it joined.
///
/// The origin is on the stream's timestamps, not on `EXT-X-PROGRAM-DATE-TIME`: libavformat 5.1's
/// hls demuxer skips that tag and gives no access to it. So a stream whose timestamps jump (a
/// discontinuity, a PTS wrap after 26.5 h) moves the party's time line with them.
public struct LiveOrigin: Sendable, Codable, Equatable {
    /// The hold behind the live edge when the host gives none (`--live-delay`): HLS players start
    /// three target durations from the end (RFC 8216 §6.3.3), so that a segment is on the server
    /// before it is needed; at the common 2–6 s segments this is 6–18 s. A seconds figure is what
    /// the `live` command needs, so the host measures what those three segments are (``delay``).
    public static let segmentsHeldBack = 3

    /// Seconds on the stream's own timestamps that are position 0 in the party.
    public var origin: Double
    /// Protocol 8: seconds the party holds behind the live edge (the end of the newest segment, as
    /// the host measured it when it opened the stream): where the party began, and where the `live`
    /// command brings everyone back to. Nil from a host that did not measure it (a live stream that
    /// is not a playlist).
    public var delay: Double?

    public init(origin: Double, delay: Double? = nil) {
        self.origin = origin
        self.delay = delay
    }

    /// The position the `live` command goes to, for a member showing `position` whose player has
    /// read `readAhead` seconds beyond it (reading stops at the newest data: the live edge), or nil
    /// when that is no later than `position` by more than ``nearEdge`` (already there; a live
    /// stream cannot be sought backwards, so the party does not go back).
    public func livePosition(from position: Double, readAhead: Double) -> Double? {
        let target = position + readAhead - (delay ?? Self.fallbackDelay)
        return target > position + Self.nearEdge ? target : nil
    }

    /// The hold used when the host gave no ``delay``: a few seconds, as three 1–2 s segments.
    public static let fallbackDelay = 4.0
    /// Closer to the hold than this already: the `live` command has nothing to do. Half a second is
    /// less than any segment, so it never leaves a party a whole segment late.
    public static let nearEdge = 0.5
}
