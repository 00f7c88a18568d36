import Testing
import TestSupport
@testable import TandemApp

/// A host's party items (``HostSession/items(_:)-([String])``): its files in order, and only URLs
/// every member can open.
@Suite struct HostItemsTests {
    @Test func aHostRefusesURLsOfOtherSchemes() {
        do {
            _ = try HostSession.items(["rtmp://127.0.0.1/live/party.mp4"])
            Issue.record("an rtmp URL became a party item")
        } catch {
            #expect("\(error)" == "rtmp://127.0.0.1/live/party.mp4: only http and https URLs can be party items (every member opens the URL itself)")
        }
    }

    @Test func aHostsItemsAreItsFilesInOrder() throws {
        let items = try HostSession.items([Repository.asset("party.mp4"), Repository.asset("h264-aac.mp4")])
        #expect(items.map(\.title) == ["party.mp4", "h264-aac.mp4"])
        #expect(items.allSatisfy { $0.url == nil && $0.identity.bytes != nil })
    }
}
