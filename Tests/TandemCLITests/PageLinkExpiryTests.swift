import Foundation
import Testing
import TestSupport

/// A page's media link that has expired by its turn in a playlist (the site answers 410 Gone, and
/// its page now points elsewhere): `tandem play` asks yt-dlp again, once, and plays the new link.
@Suite struct PageLinkExpiryTests {
    @Test func anExpiredMediaLinkIsResolvedAgainOnce() async throws {
        try await PageSite.with { site in
            let clip = Repository.asset("h264-aac.mp4")
            for name in ["old.mp4", "new.mp4"] { try FileManager.default.copyItem(atPath: clip, toPath: site.folder.path(name)) }
            try site.writePage("expiring.html", title: "An Expiring Page", videos: ["old.mp4"])
            let page = site.url("expiring.html")
            let socket = temporarySocketPath("expiry")
            // The page is listed (and its media link resolved) at the start; the 60 s party clip
            // plays first, until the test has let the link expire and asks for the next item.
            let play = try ChildProcess.tandem(["play", "--headless", "--json", "--ipc", socket, site.url("party.mp4"), page],
                                               adding: site.environment)
            defer { play.kill() }
            let client = try await SocketClient.connect(path: socket, within: 60)
            _ = try await play.line(within: 60) { $0.contains("\"event\":\"open\"") }
            #expect(site.requests("GET /expiring.html") == 1)
            site.server.refuse("old.mp4", status: 410)
            try site.writePage("expiring.html", title: "An Expiring Page", videos: ["new.mp4"])
            #expect(try await client.request(#"{"command":["playlist-next"]}"#).contains("success"))
            #expect(try await play.exit(within: 60) == .exited(0), "\(play.standardError)")

            let opens = JSONLines.events("open", in: play.standardOutput)
            #expect(opens.count == 2)
            #expect(opens.last?["file"] as? String == page && opens.last?["url"] as? String == site.url("new.mp4"))
            #expect(play.standardError.contains(
                "tandem: \(page): HTTP 4xx: the server refused the request: its link may have expired, asking yt-dlp again\n"), "\(play.standardError)")
            #expect(site.requests("GET /expiring.html") == 2, "\(site.server.requests)")
        }
    }
}
