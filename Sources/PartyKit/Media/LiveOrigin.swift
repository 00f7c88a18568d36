/// What makes a party item live (protocol 7): the stream time its positions count from.
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
    /// Seconds on the stream's own timestamps that are position 0 in the party.
    public var origin: Double

    public init(origin: Double) { self.origin = origin }
}
