import Foundation
import Testing
@testable import PartyKit

@Suite struct MediaPathTests {
    @Test func aMediaPathRoundTrips() throws {
        let path = MediaPath.path(party: "brave-otter-42", item: 3)
        #expect(path == "/party/brave-otter-42/media/3")
        let parsed = try #require(MediaPath.parse(path))
        #expect(parsed.party == "brave-otter-42" && parsed.item == 3)
    }

    @Test(arguments: ["/party/p/media/-1", "/party/p/media/../../etc/passwd", "/party/../media/0", "/party/p/media/0/",
                      "/party/p/media/0?x=1", "/party/p/media/%30", "/party/p/media/00", "/party/p/media/1234567",
                      "/party/p/media/", "/party//media/0", "party/p/media/0", "/party/p%2F/media/0", "/party/p/Media/0",
                      "/party/p/media/0#f", "/party/p/media/٣", "/party/..%2f/media/0", ""])
    func anythingElseIsNoMediaPath(_ target: String) {
        #expect(MediaPath.parse(target) == nil)
    }

    @Test func randomBytesNeverCrashTheParser() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<5000 {
            let length = Int.random(in: 0..<40, using: &rng)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...127, using: &rng) }
            _ = MediaPath.parse("/party/" + String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func tokensDependOnKeyAndPartyAndCompareExactly() {
        let token = MediaToken.derive(key: "k", party: "p")
        #expect(token.count == 64)
        #expect(token != MediaToken.derive(key: "k2", party: "p"))
        #expect(token != MediaToken.derive(key: "k", party: "p2"))
        #expect(MediaToken.matches(authorization: "Bearer \(token)", token: token))
        #expect(!MediaToken.matches(authorization: "Bearer \(token.dropLast())", token: token))
        #expect(!MediaToken.matches(authorization: token, token: token))
        #expect(!MediaToken.matches(authorization: nil, token: token))
        #expect(MediaToken.header(key: "k", party: "p") == "Authorization: Bearer \(token)\r\n")
    }

    @Test func identitiesNameTheirFirstDifference() {
        let party = MediaIdentity(bytes: 100, duration: 60, streams: ["video h264 640x360"], sampleSHA256: "aa")
        #expect(party.mismatch(with: party) == nil)
        #expect(MediaIdentity(bytes: 100, duration: 4, streams: party.streams, sampleSHA256: "aa").mismatch(with: party)
            == "is 4.0 s, the party's is 60.0 s")
        #expect(MediaIdentity(bytes: 100, duration: 60.02, streams: ["video vp9 640x360"], sampleSHA256: "aa").mismatch(with: party)
            == "has streams video vp9 640x360, the party's has video h264 640x360")
        #expect(MediaIdentity(bytes: 99, duration: 60, streams: party.streams, sampleSHA256: "aa").mismatch(with: party)
            == "is 99 bytes, the party's is 100 bytes")
        #expect(MediaIdentity(bytes: 100, duration: 60, streams: party.streams, sampleSHA256: "bb").mismatch(with: party)?
            .hasPrefix("has other content") == true)
    }

    @Test func samplingCoversHeadMiddleAndTail() {
        #expect(MediaSampling.ranges(size: 0).isEmpty)
        #expect(MediaSampling.ranges(size: 1000).map(\.length) == [1000])
        let size: Int64 = 10_000_000
        let ranges = MediaSampling.ranges(size: size)
        #expect(ranges.count == 5)
        #expect(ranges.first?.offset == 0)
        #expect(ranges.last.map { $0.offset + $0.length } == size)
        #expect(ranges.allSatisfy { $0.offset >= 0 && $0.offset + $0.length <= size && $0.length == MediaSampling.chunkBytes })
    }
}

@Suite struct RelayProtocolTests {
    @Test func relayPathsAreExactlyPartyIDRelay() {
        #expect(RelayProtocol.party(ofPath: RelayProtocol.path(party: "movie")) == "movie")
        #expect(RelayProtocol.party(ofPath: "/party/relay") == nil, "a party called relay is a party")
        #expect(RelayProtocol.party(ofPath: "/party/relay/relay") == "relay")
        for path in ["/party//relay", "/party/a/b/relay", "/x/a/relay", "/party/a/relay/", "party/a/relay"] {
            #expect(RelayProtocol.party(ofPath: path) == nil, "\(path)")
        }
    }

    @Test func relayMessagesRoundTripAndGarbageIsNil() {
        let messages: [RelayMessage] = [
            .offer(RelayOffer(party: "p", seat: "t", items: [.init(index: 0, bytes: 10)])),
            .fetch(RelayFetch(id: 1, item: 0, offset: 32768, length: 100)),
            .failed(RelayFailed(id: 2, reason: "gone")),
        ]
        for message in messages { #expect(RelayProtocol.decode(RelayProtocol.encode(message)) == message) }
        // A version-2 host's base64 chunk is not a relay message any more.
        for text in ["", "{}", "[]", #"{"type":"relayFetch"}"#, #"{"type":"hello"}"#, #"{"type":"relayChunk","id":1,"data":"AAE="}"#,
                     String(repeating: "x", count: 70_000)] {
            #expect(RelayProtocol.decode(text) == nil)
        }
    }

    @Test func chunkFramesRoundTripAndOthersAreNil() {
        let full = RelayChunk(id: Int.max, data: (0..<RelayProtocol.chunkBytes).map { UInt8(truncatingIfNeeded: $0) })
        for chunk in [RelayChunk(id: 1, data: [0, 1, 2, 255]), RelayChunk(id: 0x0102_0304_0506, data: []), full] {
            #expect(RelayProtocol.decodeChunk(RelayProtocol.encodeChunk(chunk)) == chunk)
        }
        #expect(RelayProtocol.encodeChunk(RelayChunk(id: 258, data: [7])) == [1, 0, 0, 0, 0, 0, 0, 1, 2, 7])
        let tooLong = RelayProtocol.encodeChunk(full) + [0]
        for frame: [UInt8] in [[], [1], [1, 0, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0, 1, 9], [1, 0x80, 0, 0, 0, 0, 0, 0, 0], tooLong] {
            #expect(RelayProtocol.decodeChunk(frame) == nil, "\(frame.prefix(12))")
        }
    }
}

@Suite struct MediaCredentialTests {
    @Test func aRequestPresentsItsHeaderElseItsCookie() {
        #expect(MediaToken.presented(authorization: "Bearer abc", cookies: ["tandem-media=def"]) == "abc")
        #expect(MediaToken.presented(authorization: "Basic abc", cookies: []) == "", "a header of another kind is a wrong credential")
        #expect(MediaToken.presented(authorization: nil, cookies: ["a=1; tandem-media=def ; b=2"]) == "def")
        #expect(MediaToken.presented(authorization: nil, cookies: ["a=1", "tandem-media=xyz"]) == "xyz")
        #expect(MediaToken.presented(authorization: nil, cookies: ["a=1; tandem-mediax=1; xtandem-media=2"]) == nil)
        #expect(MediaToken.presented(authorization: nil, cookies: []) == nil)
        #expect(MediaToken.matches(presented: "abc", token: "abc"))
        #expect(!MediaToken.matches(presented: "abd", token: "abc"))
        #expect(!MediaToken.matches(presented: nil, token: "abc"))
    }
}
