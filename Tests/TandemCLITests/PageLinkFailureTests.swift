import Foundation
import Testing
import TestSupport
import TestSupportHTTP
import YtdlKit

/// Each way a page link gives nothing, with a real yt-dlp (or none, or a stuck one) and the built
/// `tandem`: one line naming the link and the reason, and exit status 1.
@Suite struct PageLinkFailureTests {
    static func run(_ arguments: [String], site: PageSite, adding: [String: String] = [:]) async throws -> ChildProcess.Result {
        try await ChildProcess.runTandem(arguments, adding: site.environment.merging(adding) { $1 }, within: 90)
    }

    /// The commands that take page links, each ending soon when it does start.
    static let commands: [[String]] = [
        ["play", "--headless"], ["host", "--headless", "--listen", "127.0.0.1:0", "--duration", "1"], ["stories", "--headless"],
    ]

    @Test(arguments: commands)
    func aPageThatIsNotThereIsAnHTTPError(command: [String]) async throws {
        try await PageSite.with { site in
            let page = site.url("missing.html")
            let result = try await Self.run(command + [page], site: site)
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("tandem: \(page): the page cannot be read: HTTP 404 Not Found\n"), "\(result.standardError)")
        }
    }

    @Test(arguments: commands)
    func withoutYtdlpOnPathItSaysToInstallIt(command: [String]) async throws {
        try await PageSite.with { site in
            let page = site.url("page.html")
            let empty = try TemporaryFolder("no-ytdlp")
            defer { empty.remove() }
            let result = try await Self.run(command + [page], site: site, adding: ["PATH": empty.path])
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("tandem: yt-dlp is not installed: \(page) is a web page, and Tandem asks yt-dlp for its video "
                                                   + "(apt install yt-dlp, or pip install yt-dlp)\n"), "\(result.standardError)")
        }
    }

    @Test func aClosedPortIsANetworkError() async throws {
        try await PageSite.with { site in
            let port = try LoopbackPort.free()  // nothing listens there
            let page = "http://127.0.0.1:\(port)/page.html"
            let result = try await Self.run(["play", "--headless", page], site: site)
            #expect(result.status == 1)
            #expect(result.standardError == "tandem: \(page): network error: connection refused (nothing listens at 127.0.0.1:\(port))\n")
        }
    }

    /// A server that takes the request and never answers: yt-dlp's own wait (a third of the time
    /// limit, made short for the test) runs out first.
    @Test func aHostThatDoesNotAnswerIsSaidToBeSilent() async throws {
        try await PageSite.with { site in
            let silent = try await StaticFileServer.start(root: site.folder.path, mode: .silent)
            let page = silent.url("page.html")
            let result = try await Self.run(["play", "--headless", page], site: site, adding: ["TANDEM_YTDL_TIMEOUT": "24"])
            await silent.stop()
            #expect(result.status == 1)
            #expect(result.standardError == "tandem: \(page): network error: 127.0.0.1 did not answer within 8 s\n")
        }
    }

    /// A yt-dlp that never answers (a script on PATH that sleeps; a grandchild of its own holds its
    /// output open) is stopped at the time limit, made short for the test.
    @Test func aStuckYtdlpIsStoppedAtTheTimeLimit() async throws {
        try await PageSite.with { site in
            let bin = try TemporaryFolder("stuck-ytdlp")
            defer { bin.remove() }
            try Data("#!/bin/sh\nsleep 30\n".utf8).write(to: URL(fileURLWithPath: bin.path("yt-dlp")))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.path("yt-dlp"))
            let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let page = site.url("page.html")
            let result = try await Self.run(["play", "--headless", page], site: site, adding: ["PATH": path, "TANDEM_YTDL_TIMEOUT": "1"])
            #expect(result.status == 1)
            #expect(result.standardError == "tandem: \(page): yt-dlp found nothing within 1 s and was stopped (a slow site or network)\n")
        }
    }

    @Test func aPageWithoutVideoIsUnsupported() async throws {
        try await PageSite.with { site in
            let page = site.url("nothing.html")
            let result = try await Self.run(["play", "--headless", page], site: site)
            #expect(result.status == 1)
            #expect(result.standardError == "tandem: \(page): no video found there (yt-dlp: unsupported URL)\n")
        }
    }

    /// A DASH manifest's formats are fragments yt-dlp fetches itself: nothing the player opens.
    @Test(arguments: commands)
    func aPageWithNoPlayableFormatSaysWhy(command: [String]) async throws {
        try await PageSite.with { site in
            let page = site.url("dash.html")
            let result = try await Self.run(command + [page], site: site)
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("tandem: \(page): no format Tandem can play (2 formats: 2 DASH fragments (fetched by yt-dlp itself))\n"),
                    "\(result.standardError)")
        }
    }

    @Test func aBadYtdlFormatIsRefusedBeforeAnythingRuns() async throws {
        let result = try await ChildProcess.runTandem(["play", "--headless", "--ytdl-format", "bv+ba+ba", "https://example.invalid/watch"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--ytdl-format \"bv+ba+ba\": merging more than two formats is not supported"), "\(result.standardError)")
        #expect(LinkKind(of: "https://example.invalid/watch") == .page)
    }
}
