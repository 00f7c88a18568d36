import Foundation
import Testing
import TestSupport

/// A party of one of ``PageSite``'s pages, as the page-link party tests run it: the built `tandem`
/// hosting the page (headless, playing from 1 s, for 60 s) and guests that have no yt-dlp (an empty
/// PATH) and no copy of the media, so whatever they play is what the host resolved.
struct PageParty {
    let host: ChildProcess
    /// The party's `tandem://` link.
    let link: String
    /// Its link for a browser.
    let web: String
    private let empty: TemporaryFolder

    /// Hosts `page` (with `extra` options) and returns once its link is out and its own member plays
    /// (its opens are over).
    static func host(_ page: String, site: PageSite, extra: [String] = []) async throws -> PageParty {
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--script", "play@1",
                                            "--duration", "60"] + extra + [page], adding: site.environment)
        do {
            let linkLine = try await host.line(within: 60) { $0.contains("\"link\"") }
            let event = JSONLines.objects(linkLine).first
            let link = try #require(event?["link"] as? String)
            let web = try #require(event?["web"] as? String)
            _ = try await host.line(within: 60) { $0.contains("\"event\":\"status\"") && $0.contains("\"playing\":true") }
            return PageParty(host: host, link: link, web: web, empty: try TemporaryFolder("no-ytdlp"))
        } catch {
            host.kill()
            throw error
        }
    }

    /// A guest named `name` joins and this returns once it is synced and playing.
    func guest(_ name: String = "Gus") async throws -> ChildProcess {
        let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", name, "--media", empty.path, "--duration", "40", link],
                                            adding: ["PATH": empty.path])
        do {
            _ = try await guest.line(within: 60) { line in
                line.contains("\"event\":\"status\"") && line.contains("\"synced\":true") && line.contains("\"playing\":true")
            }
            return guest
        } catch {
            guest.kill()
            throw error
        }
    }

    /// Gus joins, and the host sees him watching the item's URL, opened by himself (not a stream of the host's).
    func guestWatchingTheURL() async throws -> ChildProcess {
        let guest = try await guest("Gus")
        do {
            _ = try await host.output(containing: "Gus watching (url)", within: 30)
            return guest
        } catch {
            guest.kill()
            throw error
        }
    }

    /// Stops the host (and its folder); guests are stopped by their tests.
    func stop() async {
        await host.stop()
        empty.remove()
    }

    /// For a `defer`: ends the host at once whatever happened.
    func kill() {
        host.kill()
        empty.remove()
    }
}
