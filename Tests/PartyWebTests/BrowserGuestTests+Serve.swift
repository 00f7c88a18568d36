import Foundation
import Testing
import TestSupport

/// Browser guests of a party on `tandem serve`, which converts nothing: what they play of a file
/// their browser cannot open comes from the party's host through its relay connection.
extension BrowserGuestTests {
    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aMatroskaFileWithAC3SoundPlaysThroughAServeNodeFromTheHostsRemux() async throws {
        let folder = try TemporaryFolder("serve-remux")
        defer { folder.remove() }
        let film = try await Self.matroskaWithAC3(in: folder, seconds: 30, cue: "Hello through the server")
        let port = try LoopbackPort.free()
        let serve = try ChildProcess.tandem(["serve", "--listen", "127.0.0.1:\(port)", "--state-dir", folder.path("state"),
                                             "--no-port-mapping", "--cache-size", "0"], standardError: .standardOutput)
        defer { serve.terminate() }
        _ = try await serve.output(containing: "listening on", within: 60)
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--server", "127.0.0.1:\(port)", "--name", "Hal",
                                            "--script", "play@1", "--duration", "300", film], standardError: .standardOutput)
        defer { host.terminate() }
        let line = try await host.line(within: 60) { $0.contains("\"web\"") }
        let link = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["web"] as? String)
        #expect(link.hasPrefix("https://127.0.0.1:\(port)/p/"), "the server's own origin serves the page")
        try await Self.withBrowser(host: host) { browser in
            try await Self.join(browser, link)
            // Matroska with AC-3: the page plays the host's remux (AAC sound), fetched by the server.
            try await Self.playsTheRemux(browser, within: .seconds(60))
            try await Self.showsTheOneCue("Hello through the server", in: browser)
            print("remuxing guest on serve:", try await Self.state(browser))
        }
    }
}
