import PartyKit
import Testing
@testable import PartyClient

/// What a member says of an item it cannot open: the reason, not the item's own (long) URL, so it
/// fits the party's 200 characters and the host can tell an expired link from it.
@Suite struct MemberPlaybackProblemTests {
    static let long = "https://rr3---sn.example/videoplayback?" + String(repeating: "sig=abc&", count: 150)
    static let item = MediaItem(title: "A Film", url: long, identity: MediaIdentity(duration: 60, streams: []),
                                audioURL: "https://rr3---sn.example/audio?x=1")

    @Test func theItemsURLIsLeftOutOfItsProblem() {
        #expect(MemberPlayback.problem("\(Self.long): HTTP 403 forbidden", item: Self.item) == "HTTP 403 forbidden")
        #expect(MemberPlayback.problem("https://rr3---sn.example/audio?x=1: HTTP 4xx: the server refused the request", item: Self.item)
                == "its sound: HTTP 4xx: the server refused the request")
        #expect(MemberPlayback.problem("/films/a.mkv: no such file", item: MediaItem(title: "a.mkv", identity: MediaIdentity(duration: 60, streams: []))) == "/films/a.mkv: no such file")
        #expect(MemberPlayback.problem(nil, item: Self.item) == "it could not be opened")
        // What the party keeps of it still ends with the reason.
        let kept = Presence(state: .unavailable, problem: MemberPlayback.problem("\(Self.long): HTTP 403 forbidden", item: Self.item))
        #expect(kept.problem == "HTTP 403 forbidden")
    }
}
