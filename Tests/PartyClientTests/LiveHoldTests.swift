import PartyClient
import PartyKit
import Testing

/// Where a live party begins behind the edge, from the three entries libavformat makes into a live
/// playlist (its window's start, three segments from the end, the newest segment).
@Suite struct LiveHoldTests {
    /// 2 s segments, a window of ten: start 100, the default entry 114 (three from the end), the
    /// newest 118; so the edge is 120 and the default hold three segments (6 s).
    static let window = LiveHold.window(start: 100, newest: 118, entry: 114)

    @Test func theEdgeIsTheNewestSegmentPlusOneSegment() throws {
        #expect(Self.window == LiveHold.Window(start: 100, edge: 120, entry: 114))
        // One segment listed (or an entry not before the newest): nothing to measure a segment by.
        #expect(LiveHold.window(start: 100, newest: 100, entry: 100) == nil)
        #expect(LiveHold.window(start: 110, newest: 118, entry: 104) == nil)
    }

    @Test func withoutLiveDelayThePartyBeginsAtTheDefaultEntryHeldAsFarBehind() throws {
        let origin = try LiveHold.origin(in: try #require(Self.window), delay: nil, url: "u")
        #expect(origin == LiveOrigin(origin: 114, delay: 6))
    }

    @Test func liveDelayPutsThePartyThatFarBehindTheEdge() throws {
        let window = try #require(Self.window)
        #expect(try LiveHold.origin(in: window, delay: 2.5, url: "u") == LiveOrigin(origin: 117.5, delay: 2.5))
        #expect(try LiveHold.origin(in: window, delay: 20, url: "u") == LiveOrigin(origin: 100, delay: 20))
        #expect(throws: LiveHold.TooLong(url: "u", delay: 21, window: 20)) { try LiveHold.origin(in: window, delay: 21, url: "u") }
        #expect(LiveHold.TooLong(url: "u", delay: 21, window: 20).description
            == "u: --live-delay 21 is longer than the 20.0 s the stream keeps (its playlist's window)")
    }
}
