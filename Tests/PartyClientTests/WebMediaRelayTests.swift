import Foundation
import Logging
import NIOCore
import PartyKit
@testable import PartyServer
@testable import PartyClient
import Synchronization
import Testing
import TestSupport
import WebMedia
import WebSocketTransport

/// `tandem serve` has no converter: what browsers play of a host's Matroska comes from the host,
/// through its relay connection (protocol 8), made once and kept on the server. A real server, a
/// real host member and its relay over loopback, the host's real converter (FFmpeg).
@Suite(.serialized) struct WebMediaRelayTests {
    /// Counts what the host's converter is asked, by item and piece (the server should ask once).
    final class CountingSource: WebMediaSource {
        let inner: any WebMediaSource
        private let asked = Mutex<[String: Int]>([:])
        init(_ inner: any WebMediaSource) { self.inner = inner }

        func answer(item: Int, _ request: WebMediaRequest) async throws -> [UInt8] {
            asked.withLock { $0["\(item)/\(WebMediaPath.name(of: request))", default: 0] += 1 }
            return try await inner.answer(item: item, request)
        }

        func count(_ item: Int, _ request: WebMediaRequest) -> Int { asked.withLock { $0["\(item)/\(WebMediaPath.name(of: request))"] ?? 0 } }
    }

    /// Matroska of 6 s: H.264 640x360 at 2 Mb/s (a keyframe a second, so segments of some 250 kB:
    /// several piece frames each), AC-3 5.1 (transcoded to AAC) and an English SRT track.
    static func matroska(in folder: TemporaryFolder) async throws -> String {
        let subtitles = folder.path("film.srt")
        try "1\n00:00:01,000 --> 00:00:02,500\nHello <i>there</i>\n\n2\n00:00:04,000 --> 00:00:05,000\nTwo lines\nof text\n"
            .write(toFile: subtitles, atomically: true, encoding: .utf8)
        let film = folder.path("film.mkv")
        let made = try await ChildProcess.run("/usr/bin/ffmpeg", [
            "-hide_banner", "-loglevel", "error", "-y", "-nostdin",
            "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=6", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=6", "-i", subtitles,
            "-map", "0:v", "-map", "1:a", "-map", "2:s", "-c:v", "libx264", "-b:v", "2M", "-g", "25", "-pix_fmt", "yuv420p",
            "-preset", "veryfast", "-c:a", "ac3", "-ac", "6", "-c:s", "srt", "-metadata:s:s:0", "language=eng", "-f", "matroska", film])
        try #require(made.status == 0, "ffmpeg: \(made.standardError)")
        return film
    }

    /// Item 0: the Matroska (remuxed, its sound transcoded); item 1: the same file listed as HEVC,
    /// which browsers here do not decode (its segments are not made).
    static func converter(_ film: String) -> WebMediaConverter {
        WebMediaConverter(items: [
            0: .init(path: film, title: "film.mkv", streams: ["video h264 640x360", "audio ac3 48000 Hz 6 ch", "subtitle subrip eng"]),
            1: .init(path: film, title: "film-hevc.mkv", streams: ["video hevc 640x360", "audio ac3 48000 Hz 6 ch"]),
        ])
    }

    @Test func browsersOnAServeNodeGetTheHostsConvertedPiecesMadeOnce() async throws {
        let folder = try TemporaryFolder("webmedia-relay")
        defer { folder.remove() }
        let film = try await Self.matroska(in: folder)
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "films", key: "k", insecure: true)
        let item = PartyLoopbackTests.item("party.mp4")
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [item, item]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let source = CountingSource(Self.converter(film))
        let upstream = Task {
            await MediaUpstream(link: link, files: [0: film, 1: film], seat: { await host.seatToken }, web: source,
                                logger: Logger(label: "test")).run()
        }
        let cookie = ["Cookie": "tandem-media=\(MediaToken.derive(key: link.key, party: link.party))"]
        func get(_ item: Int, _ request: WebMediaRequest) async throws -> RawHTTP.Response {
            try await RawHTTP.get(port: port, WebMediaPath.path(party: link.party, item: item, request), headers: cookie)
        }
        try await waitUntil("the host's relay offering a converter") { server.media.relay.converts(party: link.party) }

        // What the host's own port would serve: the same converter's bytes, made here afresh.
        let reference = Self.converter(film)
        let pieces: [WebMediaRequest] = [.index, .initSegment, .segment(0), .segment(1), .segment(2), .subtitles(0)]
        var expected: [WebMediaRequest: [UInt8]] = [:]
        for piece in pieces { expected[piece] = try await reference.answer(item: 0, piece) }
        // Two guests ask for every piece at once: more pieces than a host is asked at a time, so some wait their turn.
        #expect(pieces.count > RelayPieces<Int>.maxInFlightPerParty)
        try await withThrowingTaskGroup(of: (WebMediaRequest, RawHTTP.Response).self) { group in
            for piece in pieces + pieces { group.addTask { (piece, try await get(0, piece)) } }
            for try await (piece, served) in group {
                #expect(served.status == 200, "\(piece): \(String(decoding: served.body.prefix(200), as: UTF8.self))")
                #expect(served.headers["content-type"] == piece.contentType)
                // A Bool: a failed comparison of collections would diff every byte (minutes for a segment).
                let same = served.body == expected[piece]
                #expect(same, "\(piece): \(served.body.count) bytes served, \(expected[piece]?.count ?? 0) made")
            }
        }
        let segment = try await reference.answer(item: 0, .segment(1))
        #expect(segment.count > 2 * RelayProtocol.chunkBytes, "a segment of several piece frames: \(segment.count) bytes")
        let uploaded = server.media.relay.uploadedBytes

        // Asked again: served from the server's copy, the host asked once for each piece.
        for piece in pieces {
            let again = try await get(0, piece)
            let same = again.body == expected[piece]
            #expect(again.status == 200 && same, "\(piece) again: \(again.status), \(again.body.count) bytes")
        }
        for piece in pieces { #expect(source.count(0, piece) == 1, "\(piece) asked \(source.count(0, piece)) times") }
        #expect(server.media.relay.uploadedBytes == uploaded)

        // An item the host cannot convert: the host's own 404 line, through the relay.
        let refused = try await get(1, .initSegment)
        var line = ""
        do { _ = try await reference.answer(item: 1, .initSegment) } catch let unavailable as WebMediaUnavailable {
            line = "404 Not Found: \(unavailable.reason)\n"
        }
        #expect(refused.status == 404 && String(decoding: refused.body, as: UTF8.self) == line,
                "\(refused.status) \(String(decoding: refused.body, as: UTF8.self))")
        #expect(line.contains("do not decode HEVC"))
        // Nor does it make a segment past the end, or a track it has not; nor is there an item 2.
        #expect(try await get(0, .segment(99)).status == 404)
        #expect(try await get(0, .subtitles(1)).status == 404)
        let missing = try await get(2, .index)
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self).contains("no item 2"))

        upstream.cancel()
        await upstream.value
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }

    /// A host whose relay connection closes while a piece is on its way (here a relay client that
    /// sends the first of its frames, then goes): the browser's request ends at once with a line
    /// saying so, nothing of the piece is kept; and a host that offers no converter gets the 404 line.
    @Test func aHostThatLeavesMidPieceEndsTheRequestAndOneWithoutAConverterIsSaidSo() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "gone", key: "k", insecure: true)
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let seat = try #require(await host.seatToken)
        let cookie = ["Cookie": "tandem-media=\(MediaToken.derive(key: link.key, party: link.party))"]
        let path = WebMediaPath.path(party: link.party, item: 0, .segment(0))

        let relay = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: RelayProtocol.path(party: link.party),
                                                     logger: Logger(label: "test"))
        relay.send(RelayProtocol.encode(.offer(RelayOffer(party: link.party, seat: seat, items: [.init(index: 0, bytes: 1000)], web: true))))
        try await waitUntil("the relay offering a converter") { server.media.relay.converts(party: link.party) }
        let request = Task { try await RawHTTP.get(port: port, path, headers: cookie) }
        var asked: RelayWebFetch?
        // A server that never asks fails here rather than hanging.
        let deadline = Task {
            try await Task.sleep(for: .seconds(10))
            relay.close(reason: "the server never asked for the piece")
        }
        for await inbound in relay.inbound {
            if case .webFetch(let fetch) = RelayProtocol.decode(inbound.text) { asked = fetch; break }
        }
        deadline.cancel()
        let fetch = try #require(asked)
        #expect(fetch.item == 0 && fetch.piece == "0.m4s")
        // The first of a 100 kB piece's frames, then the host is gone.
        let frames = RelayProtocol.pieceFrames(id: fetch.id, bytes: [UInt8](repeating: 7, count: 100_000))
        relay.send(binary: ByteBuffer(bytes: frames[0]))
        try await waitUntil("the first frame in") { server.media.relay.uploadedBytes == Int64(RelayProtocol.chunkBytes) }
        relay.close(reason: "host gone")
        let answer = try await request.value
        #expect(answer.status == 502 && String(decoding: answer.body, as: UTF8.self) == "502 Bad Gateway: item 0: the host's relay connection closed\n",
                "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        #expect(server.media.relay.keptPieces == 0)

        // A host that relays its files but converts nothing (its offer says so): the 404 line, asked of no one.
        let plain = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: RelayProtocol.path(party: link.party),
                                                     logger: Logger(label: "test"))
        plain.send(RelayProtocol.encode(.offer(RelayOffer(party: link.party, seat: seat, items: [.init(index: 0, bytes: 1000)]))))
        try await waitUntil("the plain relay") { server.media.relay.relays(party: link.party) }
        let refused = try await RawHTTP.get(port: port, path, headers: cookie)
        #expect(refused.status == 404 && String(decoding: refused.body, as: UTF8.self) == "404 Not Found: \(MediaRelay.notConverted)\n")
        plain.close(reason: "done")

        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }

    /// A host still connected that never sends a piece (its converter stuck): the request ends
    /// with a 502 after the relay's piece timeout (short here), not never.
    @Test func aPieceTheHostNeverSendsEndsTheRequestAfterTheTimeout() async throws {
        let relay = MediaRelay(pieceTimeout: .seconds(1))
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, media: PartyMediaLibrary(relay: relay), logger: Logger(label: "test"))
        let port = try await server.start()
        let link = PartyLink(host: "127.0.0.1", port: port, party: "stuck", key: "k", insecure: true)
        let host = PartyLoopbackTests.member(link, name: "Hana", create: PartyConfig(items: [PartyLoopbackTests.item("party.mp4")]),
                                             notices: PartyLoopbackTests.Notices())
        let hostRun = Task { await host.run() }
        #expect(await eventually { await host.status.me != nil })
        let seat = try #require(await host.seatToken)
        let silent = try await WebSocketClient.connect(host: "127.0.0.1", port: port, path: RelayProtocol.path(party: link.party),
                                                      logger: Logger(label: "test"))
        silent.send(RelayProtocol.encode(.offer(RelayOffer(party: link.party, seat: seat, items: [.init(index: 0, bytes: 1000)], web: true))))
        try await waitUntil("the relay offering a converter") { relay.converts(party: link.party) }
        let cookie = ["Cookie": "tandem-media=\(MediaToken.derive(key: link.key, party: link.party))"]
        let started = ContinuousClock.now
        let answer = try await RawHTTP.get(port: port, WebMediaPath.path(party: link.party, item: 0, .index), headers: cookie)
        #expect(answer.status == 502 && String(decoding: answer.body, as: UTF8.self)
                == "502 Bad Gateway: item 0: the host sent no index.json of item 0 within 1 s\n", "\(String(decoding: answer.body, as: UTF8.self))")
        #expect(ContinuousClock.now - started < .seconds(10))
        silent.close(reason: "done")
        await host.leave()
        _ = await hostRun.value
        await host.shutDown()
        await server.stop()
    }
}
