import Testing
@testable import PartyKit

@Suite struct WebMediaPathTests {
    @Test(arguments: [WebMediaRequest.index, .initSegment, .segment(0), .segment(41), .segment(999_999), .subtitles(0), .subtitles(3)])
    func everyRequestRoundTrips(_ request: WebMediaRequest) throws {
        let path = WebMediaPath.path(party: "brave-otter-42", item: 2, request)
        #expect(path.hasPrefix("/party/brave-otter-42/media/2/web/"), "under the media cookie's path")
        let parsed = try #require(WebMediaPath.parse(path))
        #expect(parsed.party == "brave-otter-42" && parsed.item == 2 && parsed.request == request)
    }

    @Test func thePathsAreTheDocumentedOnes() {
        #expect(WebMediaPath.path(party: "p", item: 0, .index) == "/party/p/media/0/web/index.json")
        #expect(WebMediaPath.path(party: "p", item: 0, .initSegment) == "/party/p/media/0/web/init.mp4")
        #expect(WebMediaPath.path(party: "p", item: 0, .segment(7)) == "/party/p/media/0/web/7.m4s")
        #expect(WebMediaPath.path(party: "p", item: 0, .subtitles(1)) == "/party/p/media/0/web/subs/1.vtt")
        #expect(WebMediaRequest.subtitles(0).contentType == "text/vtt; charset=utf-8")
    }

    @Test(arguments: ["/party/p/media/0/web/", "/party/p/media/0/web/index.json?x=1", "/party/p/media/0/web/../0/web/init.mp4",
                      "/party/p/media/0/web/%30.m4s", "/party/p/media/0/web/00.m4s", "/party/p/media/0/web/-1.m4s",
                      "/party/p/media/0/web/+1.m4s", "/party/p/media/0/web/1234567.m4s", "/party/p/media/0/web/1.m4s/",
                      "/party/p/media/0/web/1.mp4", "/party/p/media/0/web/.m4s", "/party/p/media/0/web/subs/01.vtt",
                      "/party/p/media/0/web/subs/1.srt", "/party/p/media/0/web/subs/", "/party/p/media/0/web/subs/a/1.vtt",
                      "/party/p/media/00/web/index.json", "/party/../media/0/web/index.json", "/party/p/media/0/WEB/index.json",
                      "/party/p/media/0/web/INDEX.json", "/party/p/media/0/web/١.m4s", "/party/p/media/0/web//1.m4s",
                      "/party/p/media/0/web/1.m4s#f", "/party/p/media/0", "/party/p/media/0/web", ""])
    func anythingElseIsNoWebMediaPath(_ target: String) {
        #expect(WebMediaPath.parse(target) == nil)
    }

    @Test func randomBytesNeverCrashTheParser() {
        var rng = SplitMix64(seed: 26)
        for _ in 0..<5000 {
            let length = Int.random(in: 0..<24, using: &rng)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...127, using: &rng) }
            _ = WebMediaPath.parse("/party/p/media/0/web/" + String(decoding: bytes, as: UTF8.self))
        }
    }
}
