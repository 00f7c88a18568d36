import Foundation
import Testing
import TestSupport

/// A party of a web page joined from a real Chromium (Debian's `chromium` and `chromium-driver`): the page
/// reads what the host resolved, as a native member does.
@Suite struct PageLinkBrowserTests {
    static let unavailable = WebDriver.unavailable()

    /// A page whose picture and sound are separate formats (protocol 9's `audioURL`): the browser plays the
    /// picture in its <video> and the sound in an <audio> beside it, each on the party's timeline. (The page
    /// said it could not play such an item before.) Plain http: the site is.
    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aBrowserGuestPlaysSeparatePictureAndSoundTogether() async throws {
        try await PageSite.with { site in
            let party = try await PageParty.host(site.url("party-split.html"), site: site, extra: ["--insecure", "--no-port-mapping"])
            defer { party.kill() }
            let browser = try await WebDriver.start()
            do {
                try await browser.navigate(to: party.web)
                try await browser.sendKeys("Wendy", to: try await browser.element(css: "#name"))
                try await browser.click(try await browser.element(css: "#join-button"))
                try await browser.wait(until: """
                    const s = window.tandem.state();
                    return s.source === "split" && s.ready && !s.paused && s.currentTime > 2 && s.soundCurrentTime > 2
                        && Math.abs(s.errorMs) < 15 && Math.abs(s.pictureErrorMs) < 15
                    """, within: .seconds(60))
                let state = try await browser.execute("return window.tandem.state()")
                // Both elements on the party's timeline, so on one another's: a picture and its sound within
                // the two errors just read (15 ms each), and the moment between reading the two clocks.
                let apart = abs((state["currentTime"]?.double ?? 0) - (state["soundCurrentTime"]?.double ?? 100))
                #expect(apart < 0.05, "picture and sound \(apart) s apart: \(state)")
                #expect(state["problem"] == .null, "\(state)")
                _ = try await party.host.output(containing: "Wendy", within: 30)
                print("split item in the browser:", state)
            } catch {
                print("browser logs:", (try? await browser.browserLogs()) ?? [])
                print("page state:", (try? await browser.execute("return window.tandem && window.tandem.state()")) ?? .null)
                print("host:", party.host.standardOutput.suffix(2000))
                await browser.quit()
                throw error
            }
            await browser.quit()
            await party.stop()
        }
    }
}
