import Foundation
import PartyKit
import PartyServer
import Testing

/// The browser guest's page and its media credential on a real party server over loopback.
@Suite(.serialized) struct BrowserPageServingTests {
    static var cookie: [String: String] { ["Cookie": "theme=dark; tandem-media=\(MediaToken.derive(key: MediaServingTests.key, party: MediaServingTests.party))"] }

    @Test func thePageIsServedForAnyPartyWithAStrictPolicy() async throws {
        try await MediaServingTests.withServer { port, _ in
            for path in ["/p/\(MediaServingTests.party)", "/p/\(MediaServingTests.party)/", "/p/no-such-party?utm=x"] {
                let page = try await RawHTTP.get(port: port, path, headers: [:])
                #expect(page.status == 200, "\(path)")
                #expect(page.headers["content-type"] == "text/html; charset=utf-8")
                #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
                #expect(page.headers["x-content-type-options"] == "nosniff")
                #expect(String(decoding: page.body, as: UTF8.self).contains("<script type=\"module\" src=\"/web/main.js\">"))
            }
            let script = try await RawHTTP.get(port: port, "/web/sync.js", headers: [:])
            #expect(script.status == 200 && script.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(String(decoding: script.body, as: UTF8.self).contains("export class VideoSync"))
            let head = try await RawHTTP.get(port: port, "/web/style.css", method: "HEAD", headers: [:])
            #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"].flatMap(Int.init) ?? 0 > 100)
            for path in ["/web/nope.js", "/web/../web/main.js", "/web/%6Dain.js", "/p/", "/p/a/b", "/p/..", "/web/"] {
                #expect(try await RawHTTP.get(port: port, path, headers: [:]).status == 404, "\(path)")
            }
        }
    }

    @Test func theMediaCookieOpensTheMediaAsTheHeaderDoes() async throws {
        try await MediaServingTests.withServer { port, server in
            let answer = try await RawHTTP.get(port: port, MediaServingTests.path, headers: Self.cookie.merging(["Range": "bytes=0-99"]) { a, _ in a })
            #expect(answer.status == 206 && answer.body.count == 100)
            #expect(answer.headers["content-type"] == "video/mp4", "a <video> wants the real type")
            let wrong = ["Cookie": "tandem-media=" + String(repeating: "0", count: 64)]
            #expect(try await RawHTTP.get(port: port, MediaServingTests.path, headers: wrong).status == 403)
            #expect(try await RawHTTP.get(port: port, MediaServingTests.path, headers: ["Cookie": "theme=dark"]).status == 403)
            // Wrong cookies count as wrong keys: past the limit, even the right one is turned away for a while.
            for _ in 0..<12 { _ = try await RawHTTP.get(port: port, MediaServingTests.path, headers: wrong) }
            #expect(try await RawHTTP.get(port: port, MediaServingTests.path, headers: Self.cookie).status == 429)
            #expect(server.media.servedBodies == 1)
        }
    }
}
