import Foundation
import Logging
import PartyKit
import PartyServer
import Testing
import TestSupport
import WebMedia

/// The browser page's remuxed media on a real party server over loopback, made by a real
/// converter: answered to holders of the media cookie, refused as the media itself is.
@Suite(.serialized) struct WebMediaServingTests {
    static let party = MediaServingTests.party
    static var cookie: [String: String] { ["Cookie": "tandem-media=\(MediaToken.derive(key: MediaServingTests.key, party: party))"] }

    static func path(_ item: Int, _ request: WebMediaRequest) -> String { WebMediaPath.path(party: party, item: item, request) }

    /// A server whose party serves the bundled party.mp4 (item 0) and a file that is no media (item 1),
    /// converted for browsers; and a second party served without a converter.
    static func withServer(_ body: (Int, PartyServerRunner) async throws -> Void) async throws {
        let folder = try TemporaryFolder("webmedia-serving")
        defer { folder.remove() }
        let notMedia = folder.path("notes.mkv")
        try Data("not a film at all".utf8).write(to: URL(fileURLWithPath: notMedia))
        let converter = WebMediaConverter(items: [
            0: .init(path: MediaServingTests.file, title: "party.mp4", streams: ["video h264 640x360", "audio aac 48000 Hz 2 ch"]),
            1: .init(path: notMedia, title: "notes.mkv", streams: ["video h264 640x360"]),
        ])
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        server.media.serve(party: party, key: MediaServingTests.key, files: [0: MediaServingTests.file, 1: notMedia], web: converter)
        server.media.serve(party: "plain", key: MediaServingTests.key, files: [0: MediaServingTests.file])
        do { try await body(port, server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func theIndexInitAndSegmentsGoToHoldersOfTheCookie() async throws {
        try await Self.withServer { port, _ in
            let index = try await RawHTTP.get(port: port, Self.path(0, .index), headers: Self.cookie)
            #expect(index.status == 200 && index.headers["content-type"] == "application/json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(index.body)) as? [String: Any])
            #expect(json["plan"] as? String == "direct" && json["audio"] as? String == "copy")
            #expect((json["type"] as? String)?.hasPrefix("video/mp4; codecs=\"avc1.") == true)
            let segments = try #require(json["segments"] as? [[String: Double]])
            #expect(segments.count >= 10 && segments.last?["end"] == json["duration"] as? Double)

            let initSegment = try await RawHTTP.get(port: port, Self.path(0, .initSegment), headers: Self.cookie)
            #expect(initSegment.status == 200 && initSegment.headers["content-type"] == "video/mp4")
            #expect(Array(initSegment.body[4..<8]) == Array("ftyp".utf8))
            let segment = try await RawHTTP.get(port: port, Self.path(0, .segment(3)), headers: Self.cookie)
            #expect(segment.status == 200 && Array(segment.body[4..<8]) == Array("moof".utf8))
            #expect(segment.headers["content-length"] == "\(segment.body.count)")
            let head = try await RawHTTP.get(port: port, Self.path(0, .segment(3)), method: "HEAD", headers: Self.cookie)
            #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "\(segment.body.count)")
        }
    }

    @Test func everythingElseIsRefusedAsTheMediaIs() async throws {
        try await Self.withServer { port, server in
            func status(_ path: String, _ headers: [String: String] = Self.cookie) async throws -> Int {
                try await RawHTTP.get(port: port, path, headers: headers).status
            }
            #expect(try await status(Self.path(0, .index), [:]) == 403)
            #expect(try await status(Self.path(0, .segment(0)), ["Cookie": "tandem-media=" + String(repeating: "0", count: 64)]) == 403)
            for path in [Self.path(0, .segment(999_999)), Self.path(0, .subtitles(0)), Self.path(2, .index),
                         "/party/\(Self.party)/media/0/web/01.m4s", "/party/\(Self.party)/media/0/web/../web/init.mp4",
                         "/party/\(Self.party)/media/0/web/%30.m4s", "/party/\(Self.party)/media/0/web/index.json?x=1",
                         WebMediaPath.path(party: "nobody", item: 0, .index)] {
                #expect(try await status(path) == 404, "\(path)")
            }
            // A party served without a converter (as on `tandem serve`): 404, saying so.
            let plainCookie = ["Cookie": "tandem-media=\(MediaToken.derive(key: MediaServingTests.key, party: "plain"))"]
            let plain = try await RawHTTP.get(port: port, WebMediaPath.path(party: "plain", item: 0, .index), headers: plainCookie)
            #expect(plain.status == 404 && String(decoding: plain.body, as: UTF8.self).contains("not converted for browsers"))
            // A file FFmpeg cannot read: a 500 with one line naming it, and the server goes on.
            let broken = try await RawHTTP.get(port: port, Self.path(1, .index), headers: Self.cookie)
            let text = String(decoding: broken.body, as: UTF8.self)
            #expect(broken.status == 500 && text.contains("notes.mkv") && text.split(separator: "\n").count == 1, "\(text)")
            #expect(!text.contains("/"), "the host's path stays with the host: \(text)")
            #expect(try await status(Self.path(0, .index)) == 200)
            #expect(server.media.servedBodies == 1)
        }
    }
}
