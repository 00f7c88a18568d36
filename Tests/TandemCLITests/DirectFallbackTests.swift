import Foundation
import Testing
import TestSupport
import TestSupportHTTP

/// A link yt-dlp cannot read is opened as media, as mpv does (TandemApp's `DirectFallback`): a stream
/// at a URL without a media extension plays with no yt-dlp on PATH, in each command that takes page
/// links; what fails then is named by the player's own reason, and a page stays a page.
@Suite struct DirectFallbackTests {
    /// A PATH without yt-dlp (nothing else is run from PATH by these commands).
    static func withoutYtdlp(_ body: ([String: String]) async throws -> Void) async throws {
        let empty = try TemporaryFolder("no-ytdlp")
        defer { empty.remove() }
        try await body(["PATH": empty.path])
    }

    @Test(arguments: PageLinkFailureTests.commands)
    func aStreamWithoutAnExtensionPlaysWithoutYtdlp(command: [String]) async throws {
        try await PageSite.with { site in
            try FileManager.default.copyItem(atPath: Repository.asset("h264-aac.mp4"), toPath: site.folder.path("live"))
            try await Self.withoutYtdlp { path in
                let result = try await PageLinkFailureTests.run(command + [site.url("live")], site: site, adding: path)
                #expect(result.status == 0, "\(result.standardError)")
                #expect(!result.standardError.contains("yt-dlp"), "\(result.standardError)")
                #expect(site.requests("GET /live") >= 1)
            }
        }
    }

    /// With yt-dlp there, its generic extractor answers that the URL is media: the same item plays.
    @Test func aStreamWithoutAnExtensionPlaysThroughYtdlp() async throws {
        try await PageSite.with { site in
            try FileManager.default.copyItem(atPath: Repository.asset("h264-aac.mp4"), toPath: site.folder.path("live"))
            let result = try await PageLinkFailureTests.run(["play", "--headless", site.url("live")], site: site)
            #expect(result.status == 0, "\(result.standardError)")
        }
    }

    /// Nothing at the URL: the player's reason (the server's 404), not "install yt-dlp".
    @Test func aMissingStreamIsTheServersAnswerNotYtdlps() async throws {
        try await PageSite.with { site in
            try await Self.withoutYtdlp { path in
                let url = site.url("gone")
                let result = try await PageLinkFailureTests.run(["play", "--headless", url], site: site, adding: path)
                #expect(result.status == 1)
                #expect(result.standardError == "tandem: \(url): HTTP 404 not found\n", "\(result.standardError)")
            }
        }
    }
}
