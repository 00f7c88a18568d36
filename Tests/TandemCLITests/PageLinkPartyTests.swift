import Foundation
import Testing
import TestSupport

/// A party of a web page with the built `tandem`: the host resolves the link through a real yt-dlp
/// (its generic extractor on a page served on loopback) and the item is the chosen format's URL;
/// a guest without yt-dlp (an empty PATH) and without a copy opens that URL and syncs.
@Suite struct PageLinkPartyTests {
    @Test func aGuestOpensWhatTheHostResolvedAndSyncs() async throws {
        try await PageSite.with { site in
            let party = try await PageParty.host(site.url("party.html"), site: site)
            defer { party.kill() }
            let guest = try await party.guestWatchingTheURL()
            defer { guest.kill() }
            await guest.stop()
            await party.stop()
            #expect(site.requests("GET /party.html") == 1, "only the host's yt-dlp reads the page: \(site.server.requests)")
            #expect(site.requests("GET /party.mp4") >= 2, "host and guest open the clip: \(site.server.requests)")
            #expect(!guest.standardError.contains("yt-dlp"), "\(guest.standardError)")
        }
    }

    /// A site that gives its media only to players that name the page: the item carries the `Referer`
    /// (protocol 9), and the guest sends it too.
    @Test func aGuestSendsThePagesReferer() async throws {
        try await PageSite.with { site in
            site.server.requireReferer("party.mp4", site.url("party.html"))
            let party = try await PageParty.host(site.url("party.html"), site: site)
            defer { party.kill() }
            let guest = try await party.guestWatchingTheURL()
            defer { guest.kill() }
            await guest.stop()
            await party.stop()
        }
    }

    /// A page whose picture and sound are separate formats: the item carries both URLs (protocol 9), and a
    /// guest without yt-dlp opens the sound beside the picture and syncs.
    @Test func aGuestOpensAPagesSeparateSoundBesideItsPicture() async throws {
        try await PageSite.with { site in
            let party = try await PageParty.host(site.url("party-split.html"), site: site)
            defer { party.kill() }
            let soundOpens = site.requests("GET /party-sound.m4a")
            let guest = try await party.guest()
            defer { guest.kill() }
            await guest.stop()
            await party.stop()
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
