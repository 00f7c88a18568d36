import Foundation
import Testing
import TestSupport

/// A party of a web page with the built `tandem`: the host resolves the link through a real yt-dlp
/// (its generic extractor on a page served on loopback) and the item is the chosen format's URL;
/// a guest without yt-dlp (an empty PATH) and without a copy opens that URL and syncs.
@Suite struct PageLinkPartyTests {
    @Test func aGuestOpensWhatTheHostResolvedAndSyncs() async throws {
        try await PageSite.with { site in
            let page = site.url("party.html")
            let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--script", "play@1",
                                                "--duration", "60", page], adding: site.environment)
            defer { host.kill() }
            let linkLine = try await host.line(within: 60) { $0.contains("\"link\"") }
            let link = try #require(JSONLines.objects(linkLine).first?["link"] as? String)

            let empty = try TemporaryFolder("no-ytdlp")
            defer { empty.remove() }
            let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Gus", "--media", empty.path, "--duration", "40", link],
                                                adding: ["PATH": empty.path])
            defer { guest.kill() }
            _ = try await guest.line(within: 60) { line in
                line.contains("\"event\":\"status\"") && line.contains("\"synced\":true") && line.contains("\"playing\":true")
            }
            // The guest opened the item's URL itself (not a stream of the host's), and the item is the page's.
            _ = try await host.output(containing: "Gus watching (url)", within: 30)
            await guest.stop()
            await host.stop()
            #expect(site.requests("GET /party.html") == 1, "only the host's yt-dlp reads the page: \(site.server.requests)")
            #expect(site.requests("GET /party.mp4") >= 2, "host and guest open the clip: \(site.server.requests)")
            #expect(!guest.standardError.contains("yt-dlp"), "\(guest.standardError)")
        }
    }

    /// A page whose picture and sound are separate formats: the item carries both URLs (protocol 9), and a
    /// guest without yt-dlp opens the sound beside the picture and syncs.
    @Test func aGuestOpensAPagesSeparateSoundBesideItsPicture() async throws {
        try await PageSite.with { site in
            let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--script", "play@1",
                                                "--duration", "60", site.url("party-split.html")], adding: site.environment)
            defer { host.kill() }
            let linkLine = try await host.line(within: 60) { $0.contains("\"link\"") }
            let link = try #require(JSONLines.objects(linkLine).first?["link"] as? String)
            // The host's own member plays (its opens of both files are over: they start with their index).
            _ = try await host.line(within: 60) { line in
                line.contains("\"event\":\"status\"") && line.contains("\"playing\":true")
            }
            let soundOpens = site.requests("GET /party-sound.m4a")

            let empty = try TemporaryFolder("no-ytdlp")
            defer { empty.remove() }
            let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Gus", "--media", empty.path, "--duration", "40", link],
                                                adding: ["PATH": empty.path])
            defer { guest.kill() }
            _ = try await guest.line(within: 60) { line in
                line.contains("\"event\":\"status\"") && line.contains("\"synced\":true") && line.contains("\"playing\":true")
            }
            await guest.stop()
            await host.stop()
            #expect(site.requests("GET /party-split.html") == 1, "only the host's yt-dlp reads the page: \(site.server.requests)")
            #expect(site.requests("GET /party-sound.m4a") > soundOpens, "the guest opened the sound: \(site.server.requests)")
            #expect(site.requests("GET /party-video.mp4") >= 2 && site.requests("GET /party.mp4") == 0, "\(site.server.requests)")
        }
    }

    /// A playlist page: its videos are the party's items, in order.
    @Test func aPlaylistPageGivesThePartysItems() async throws {
        try await PageSite.with { site in
            let host = try ChildProcess.tandem(["host", "--headless", "--listen", "127.0.0.1:0", "--duration", "1", site.url("two.html")],
                                               adding: site.environment)
            #expect(try await host.exit(within: 60) == .exited(0), "\(host.standardError)")
            // The host's own member opened the first item's URL (the second waits for its turn).
            #expect(site.requests("GET /clip.mp4") >= 1 && site.requests("GET /two.html") == 1, "\(site.server.requests)")
            #expect(site.requests("HEAD /clip2.mp4") + site.requests("GET /clip2.mp4") >= 1, "the second item was identified: \(site.server.requests)")
        }
    }
}
