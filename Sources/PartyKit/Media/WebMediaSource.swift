/// What makes an item playable in a browser that cannot open it as it is: remuxed to fragmented MP4
/// in segments, its sound transcoded when the browser cannot decode it, its subtitles as WebVTT.
///
/// The contract between the party's HTTP endpoint (PartyServer, which links no decoder) and the
/// converter of a host that has FFmpeg (WebMedia): the endpoint checks the credential and the path,
/// the source makes the bytes. Implementations do their blocking work off the caller's executor (a
/// thread of their own), so an event loop awaiting them is never blocked.
public protocol WebMediaSource: Sendable {
    /// The bytes answering `request` for item `item`. Throws ``WebMediaUnavailable`` for what this
    /// source does not make (an item it does not convert, a segment or track it does not have):
    /// a 404; any other error is a failure to convert, answered 500 with its one-line description.
    func answer(item: Int, _ request: WebMediaRequest) async throws -> [UInt8]
}

/// A request for something the source does not make: answered 404 with the reason.
public struct WebMediaUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
