import Testing
import PartyKit

/// Protocol 8's relay additions: web fetches, the `unavailable` failure, and piece frames.
@Suite struct RelayPieceFrameTests {
    @Test func webFetchesAndTheirFailuresRoundTrip() {
        let messages: [RelayMessage] = [
            .offer(RelayOffer(party: "p", seat: "t", items: [.init(index: 0, bytes: 10)], web: true)),
            .webFetch(RelayWebFetch(id: 3, item: 1, piece: "subs/0.vtt")),
            .failed(RelayFailed(id: 3, reason: "item 1 has no text subtitle track 0", unavailable: true)),
        ]
        for message in messages { #expect(RelayProtocol.decode(RelayProtocol.encode(message)) == message) }
        // A version-7 offer (no `web`) is one that converts nothing.
        #expect(RelayProtocol.decode(#"{"type":"relayOffer","party":"p","seat":"t","items":[]}"#)
                == .offer(RelayOffer(party: "p", seat: "t", items: [])))
    }

    @Test func piecesNameTheirRequestsAsTheWebPathDoes() {
        for request: WebMediaRequest in [.index, .initSegment, .segment(0), .segment(43_200), .subtitles(2)] {
            #expect(WebMediaPath.request(named: WebMediaPath.name(of: request)) == request)
            #expect(WebMediaPath.path(party: "p", item: 1, request).hasSuffix("/web/" + WebMediaPath.name(of: request)))
        }
        for name in ["", "01.m4s", "-1.m4s", "../init.mp4", "init.mp4?x", "subs/a.vtt", "subs/0.vtt/x", "1234567.m4s", "%30.m4s"] {
            #expect(WebMediaPath.request(named: name) == nil, "\(name)")
        }
    }

    @Test func aPieceIsSentWholeInFramesOfAChunkAtMost() {
        let piece = (0..<(2 * RelayProtocol.chunkBytes + 5)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let frames = RelayProtocol.pieceFrames(id: 0x0102, bytes: piece)
        #expect(frames.count == 3)
        var joined: [UInt8] = []
        for frame in frames {
            guard case .piece(let part) = RelayProtocol.decodeFrame(frame) else { Issue.record("not a piece frame"); return }
            #expect(part.id == 0x0102 && part.total == Int64(piece.count) && part.offset == Int64(joined.count))
            joined += part.data
        }
        #expect(joined == piece)
        // An empty piece is one empty frame; a chunk frame is still a chunk.
        #expect(RelayProtocol.pieceFrames(id: 1, bytes: []).map(RelayProtocol.decodeFrame)
                == [.piece(RelayPieceChunk(id: 1, offset: 0, total: 0, data: []))])
        #expect(RelayProtocol.decodeFrame(RelayProtocol.encodeChunk(RelayChunk(id: 4, data: [1]))) == .chunk(RelayChunk(id: 4, data: [1])))
    }

    @Test func framesThatAreNeitherAreNil() {
        func header(id: UInt64 = 1, offset: UInt64, total: UInt64) -> [UInt8] {
            [2] + [id, offset, total].flatMap { value in (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
        }
        let frames: [[UInt8]] = [
            [], [3, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0, 1],                                         // another kind, short headers
            header(offset: 0, total: 2) + [1, 2, 3],                                            // past its end
            header(offset: 5, total: 4),                                                        // starts past its end
            header(offset: 0, total: UInt64(RelayProtocol.maxPieceBytes) + 1) + [1],            // over the relay's limit
            header(id: UInt64(Int.max) + 1, offset: 0, total: 1) + [1],                         // an id out of range
            header(offset: 0, total: 1 << 20) + [UInt8](repeating: 0, count: RelayProtocol.chunkBytes + 1),  // too long a frame
        ]
        for frame in frames { #expect(RelayProtocol.decodeFrame(frame) == nil, "\(frame.prefix(25))") }
    }
}
