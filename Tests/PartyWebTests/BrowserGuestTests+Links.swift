import Foundation
import Testing
import TestSupport
import TestSupportHTTP

/// A party of a link (a web site's media, not a file the host serves) in the browser.
extension BrowserGuestTests {
    /// A video site's link names no file type (`…/videoplayback?…`): the page goes by the item's codecs,
    /// plays the link itself and is in sync. (It said "this browser cannot open its container" before.)
    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aLinkThatNamesNoFileTypePlaysWhenItsCodecsDo() async throws {
        let folder = try TemporaryFolder("browser-link")
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: Repository.asset("party.mp4"), toPath: folder.path("videoplayback"))
        let site = try await StaticFileServer.start(root: folder.path)
        defer { Task { await site.stop() } }
        // Plain http for the page too: an https page may not load http media.
        let (host, link) = try await Self.host(site.url("videoplayback") + "?itag=18&expire=1", script: "play@1", duration: 300,
                                               extra: ["--insecure", "--no-ytdl"])
        defer { host.terminate() }
        try await Self.withBrowser(host: host) { browser in
            try await Self.join(browser, link)
            try await browser.wait(until: "const s = window.tandem.state(); return s.ready && !s.paused && s.currentTime > 1",
                                   within: .seconds(60))
            let state = try await Self.state(browser)
            #expect(state["source"]?.string == "direct", "\(state)")
            #expect(state["problem"] == .null, "\(state)")
        }
    }
}
