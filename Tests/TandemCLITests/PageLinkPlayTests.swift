import Foundation
import Testing
import TestSupport

/// `tandem play` and `tandem stories` of web pages through a real yt-dlp (Debian's, on PATH) and its
/// generic extractor, on pages served on loopback (``PageSite``), with the built `tandem`.
@Suite struct PageLinkPlayTests {
    static func play(_ arguments: [String], site: PageSite) async throws -> ChildProcess.Result {
        try await ChildProcess.runTandem(["play", "--headless", "--json"] + arguments, adding: site.environment, within: 90)
    }

    @Test func aPageWithAVideoPlaysItToItsEndTitledAsThePage() async throws {
        try await PageSite.with { site in
            let page = site.url("page.html")
            let result = try await Self.play([page], site: site)
            #expect(result.status == 0, "\(result.standardError)")
            let open = try #require(JSONLines.events("open", in: result.standardOutput).first, "\(result.standardOutput)")
            #expect(open["title"] as? String == "A Clip Page (1)")
            #expect(open["file"] as? String == page)
            #expect(open["url"] as? String == site.url("clip.mp4"))
            #expect(JSONLines.events("ended", in: result.standardOutput).count == 1)
            let end = try #require(JSONLines.events("end", in: result.standardOutput).last)
            let length = try #require(open["durationSeconds"] as? Double)
            #expect(abs((end["durationSeconds"] as? Double ?? 0) - length) < 0.1, "played \(end), the clip is \(length) s")
            #expect(site.requests("GET /page.html") == 1, "yt-dlp reads the page once: \(site.server.requests)")
        }
    }

    @Test func aPageWhoseVideoIsAnHLSMasterPlaysItsVariant() async throws {
        try await PageSite.with { site in
            let result = try await Self.play([site.url("hls.html")], site: site)
            #expect(result.status == 0, "\(result.standardError)")
            let open = try #require(JSONLines.events("open", in: result.standardOutput).first, "\(result.standardOutput)")
            #expect(open["title"] as? String == "An HLS Page (1)")
            #expect(open["url"] as? String == site.url("stream.m3u8"))
            #expect(JSONLines.events("ended", in: result.standardOutput).count == 1)
        }
    }

    /// A page with two `<video>`s and a feed with two enclosures: each a playlist of two, played in turn.
    @Test(arguments: [("two.html", ["Two Clips (1)", "Two Clips (2)"]), ("feed.xml", ["First", "Second"])])
    func aPlaylistPageIsAPlaylist(page: String, titles: [String]) async throws {
        try await PageSite.with { site in
            let result = try await Self.play(["--end", "1", site.url(page)], site: site)
            #expect(result.status == 0, "\(result.standardError)")
            let opens = JSONLines.events("open", in: result.standardOutput)
            #expect(opens.map { $0["title"] as? String } == titles)
            #expect(opens.map { ($0["url"] ?? $0["file"]) as? String } == [site.url("clip.mp4"), site.url("clip2.mp4")])
        }
    }

    /// A page whose picture and sound are separate formats (`bestvideo*+bestaudio`, the default): both
    /// opened and played on one clock, picture for picture and sample for sample as the clip they came from.
    @Test func aPageOfSeparateVideoAndSoundPlaysBothAsTheClip() async throws {
        try await PageSite.with { site in
            let folder = try TemporaryFolder("split-page")
            defer { folder.remove() }
            let page = try await AudioFileCommandTests.played([site.url("split.html")], into: folder, name: "page", adding: site.environment)
            let clip = try await AudioFileCommandTests.played([Repository.asset("h264-aac.mp4")], into: folder, name: "clip")
            #expect(clip.frames.count == 100 && page.frames == clip.frames)
            #expect(page.sound == clip.sound)
            #expect(site.requests("GET /split-video.mp4") >= 1 && site.requests("GET /split-sound.m4a") >= 1, "\(site.server.requests)")
        }
    }

    /// A site that gives its media only to a player that names the page (`Referer`, from yt-dlp's headers).
    @Test func aSiteThatChecksTheRefererIsSentIt() async throws {
        try await PageSite.with { site in
            site.server.requireReferer("clip.mp4", site.url("page.html"))
            let direct = try await Self.play(["--no-ytdl", site.url("clip.mp4")], site: site)
            #expect(direct.status == 1 && direct.standardError.contains("HTTP 403 forbidden"), "the check is real: \(direct.standardError)")
            let result = try await Self.play([site.url("page.html")], site: site)
            #expect(result.status == 0, "\(result.standardError)")
            #expect(JSONLines.events("ended", in: result.standardOutput).count == 1)
        }
    }

    @Test func aFormatIsChosenByYtdlFormat() async throws {
        try await PageSite.with { site in
            let chosen = try await Self.play(["--end", "0.5", "--ytdl-format", "hls-253/best", site.url("hls.html")], site: site)
            #expect(chosen.status == 0, "\(chosen.standardError)")
            let none = try await Self.play(["--ytdl-format", "best[height>=1080]", site.url("hls.html")], site: site)
            #expect(none.status == 1)
            #expect(none.standardError == "tandem: \(site.url("hls.html")): no format matches --ytdl-format \"best[height>=1080]\" (playable: hls-253 mp4 320x240)\n")
        }
    }

    @Test func noYtdlOpensThePageAsMedia() async throws {
        try await PageSite.with { site in
            let result = try await Self.play(["--no-ytdl", site.url("page.html")], site: site)
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("tandem: \(site.url("page.html")): "), "\(result.standardError)")
            #expect(site.requests("GET /page.html") >= 1 && !result.standardError.contains("yt-dlp"))
        }
    }

    @Test func storiesOfAPlaylistPageAreItsVideos() async throws {
        try await PageSite.with { site in
            let result = try await ChildProcess.runTandem(["stories", "--headless", "--json", "--script", "next@0.5,quit@1.5", site.url("two.html")],
                                                          adding: site.environment, within: 90)
            #expect(result.status == 0, "\(result.standardError)")
            let started = JSONLines.events("storyStarted", in: result.standardOutput)
            #expect(started.map { $0["title"] as? String } == ["Two Clips (1)", "Two Clips (2)"])
            #expect(started.map { $0["count"] as? Int } == [2, 2])
        }
    }
}
