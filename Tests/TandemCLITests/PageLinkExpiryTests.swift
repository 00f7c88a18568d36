import Foundation
import Testing
import TestSupport

/// A page's media link that has expired (the site answers 410 Gone, and its page now points
/// elsewhere): `tandem play` asks yt-dlp again, once, and plays the new link; a party's host does the
/// same when a member is refused it, and every member opens the new one.
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

    @Test func aPartysExpiredLinkIsResolvedAgainByTheHost() async throws {
        try await PageSite.with { site in
            for name in ["old.mp4", "new.mp4"] { try FileManager.default.copyItem(atPath: Repository.asset("party.mp4"), toPath: site.folder.path(name)) }
            try site.writePage("expiring.html", title: "An Expiring Party", videos: ["old.mp4"])
            let page = site.url("expiring.html")
            let party = try await PageParty.host(page, site: site)
            defer { party.kill() }
            // Hours later, as far as the site is concerned: the link is gone, the page points elsewhere.
            site.server.refuse("old.mp4", status: 410)
            try site.writePage("expiring.html", title: "An Expiring Party", videos: ["new.mp4"])
            let guest = try await party.guest()
            defer { guest.kill() }
            await guest.stop()
            await party.stop()
            let host = party.host
            #expect(host.standardError.contains("\(page): the party's link to it was refused (expired?): asking yt-dlp again"),
                    "\(host.standardError)")
            #expect(site.requests("GET /expiring.html") == 2, "\(site.server.requests)")
            #expect(site.requests("GET /new.mp4") >= 2, "host and guest open the new link: \(site.server.requests)")
            #expect(guest.standardOutput.contains("the host found a new link for it"), "\(guest.standardOutput)")
        }
    }
}
