import Foundation
import Testing
import TestSupport

/// The page in a real Chromium (Debian's `chromium` and `chromium-driver`, over WebDriver) as a guest
/// of a real party that the built `tandem` hosts on loopback, over TLS with its self-signed certificate.
@Suite struct BrowserGuestTests {
    static let unavailable = WebDriver.unavailable()

    /// `tandem host --headless --json` of `file`, and the browser link it printed.
    static func host(_ file: String, script: String, duration: Int, extra: [String] = []) async throws -> (ChildProcess, String) {
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--no-port-mapping",
                                            "--name", "Hal", "--script", script, "--duration", "\(duration)"] + extra + [file],
                                           standardError: .standardOutput)
        let line = try await host.line(within: 60) { $0.contains("\"web\"") }
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (host, try #require(object?["web"] as? String))
    }

    /// Opens `link`, types a name and joins.
    static func join(_ browser: WebDriver, _ link: String, name: String = "Wendy") async throws {
        try await browser.navigate(to: link)
        try await browser.sendKeys(name, to: try await browser.element(css: "#name"))
        try await browser.click(try await browser.element(css: "#join-button"))
    }

    /// Runs `body` with a new headless Chromium and always quits it; on a failure prints the page's
    /// console and what `host` printed, which say more than the failed step.
    static func withBrowser(windowSize: (Int, Int)? = nil, host: ChildProcess?, _ body: (WebDriver) async throws -> Void) async throws {
        let browser = try await WebDriver.start(windowSize: windowSize)
        do {
            try await body(browser)
        } catch {
            print("browser logs:", (try? await browser.browserLogs()) ?? [])
            print("page state:", (try? await browser.execute("return window.tandem && window.tandem.state()")) ?? .null)
            print("page trace (local s, error ms, rate):", (try? await browser.execute("return window.tandem && window.tandem.trace().slice(-40)")) ?? .null)
            if let host { print("host:", host.standardOutput.suffix(2000)) }
            await browser.quit()
            throw error
        }
        await browser.quit()
    }

    static func state(_ browser: WebDriver) async throws -> WebDriver.JSON {
        try await browser.execute("return window.tandem.state()")
    }

    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aBrowserGuestFollowsTheHostThroughEveryCommandAndChats() async throws {
        let folder = try TemporaryFolder("browser-ipc")
        defer { folder.remove() }
        let socket = folder.path("host.sock")
        // The host is driven over its IPC socket once the page has done each step, never by the clock:
        // a loaded machine may take seconds to start a browser.
        let (host, link) = try await Self.host(Repository.asset("party.mp4"), script: "", duration: 300, extra: ["--ipc", socket])
        defer { host.terminate() }
        #expect(link.hasPrefix("https://127.0.0.1:") && link.contains("/p/") && link.contains("#key="))
        let ipc = try await SocketClient.connect(path: socket, within: 60)
        func send(_ command: String) async throws { _ = try await ipc.request(#"{"command":\#(command)}"#) }
        try await Self.withBrowser(host: host) { browser in
            try await Self.join(browser, link)
            try await browser.wait(until: "const s = window.tandem.state(); return s.ready && s.paused", within: .seconds(60))
            _ = try await host.output(containing: "Wendy joined", within: 30)
            // Play: in sync (the page's own measure, under 100 ms).
            try await send(#"["set_property","pause",false]"#)
            try await browser.wait(until: "const s = window.tandem.state(); return s.ready && !s.paused && s.currentTime > 2", within: .seconds(60))
            // Pause: the page holds the party's picture, to the frame.
            try await send(#"["set_property","pause",true]"#)
            try await browser.wait(until: "const s = window.tandem.state(); return s.paused && s.syncPhase == 'following' && s.ready", within: .seconds(60))
            let pausedAt = try await Self.state(browser)["currentTime"]?.double ?? 0
            let hostAt = try await Self.hostPosition(ipc)
            #expect(abs(pausedAt - hostAt) < 0.11, "the page paused at \(pausedAt), the host at \(hostAt)")
            // Play on, seek, and two rate changes.
            try await send(#"["set_property","pause",false]"#)
            try await browser.wait(until: "const s = window.tandem.state(); return !s.paused && s.currentTime > \(pausedAt + 0.5)", within: .seconds(60))
            try await send(#"["seek",30,"absolute"]"#)
            try await browser.wait(until: "const s = window.tandem.state(); return !s.paused && s.currentTime > 30 && s.ready", within: .seconds(60))
            try await send(#"["set_property","speed",1.25]"#)
            try await browser.wait(until: "return window.tandem.state().timelineRate == 1.25", within: .seconds(60))
            try await send(#"["set_property","speed",1]"#)
            try await browser.wait(until: "const s = window.tandem.state(); return s.timelineRate == 1 && s.ready", within: .seconds(60))
            // Chat to the party.
            try await browser.sendKeys("hello from a browser\n", to: try await browser.element(css: "#chat-input"))
            _ = try await host.output(containing: "hello from a browser", within: 30)
            let last = try await Self.state(browser)
            #expect(last["participants"]?.array?.compactMap(\.string).sorted() == ["Hal", "Wendy"])
            #expect(abs(last["errorMs"]?.double ?? .infinity) < 100, "\(last)")
            print("browser guest:", last)
            // The host leaves: the page says the party ended, nothing stuck.
            try await send(#"["quit"]"#)
            try await browser.wait(until: "return (window.tandem.state().problem || '').includes('the party ended')", within: .seconds(60))
        }
    }

    /// The host's position, over its IPC socket (`get_property time-pos`).
    static func hostPosition(_ ipc: SocketClient) async throws -> Double {
        for _ in 0..<20 {
            let line = try await ipc.request(#"{"command":["get_property","time-pos"],"request_id":7}"#)
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               object["request_id"] as? Int == 7, let value = object["data"] as? Double { return value }
        }
        throw SocketClientError(description: "the host never answered get_property time-pos")
    }

    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aWrongKeyANoKeyLinkAnUnplayableCodecAndARefusedFileEachSayWhy() async throws {
        let folder = try TemporaryFolder("browser")
        defer { folder.remove() }
        let hevc = folder.path("film.mp4")
        let made = try await ChildProcess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                                         "testsrc2=s=160x120:r=25:d=2", "-c:v", "libx265", "-tag:v", "hvc1", hevc])
        try #require(made.status == 0, "ffmpeg: \(made.standardError)")
        let (host, link) = try await Self.host(hevc, script: "play@1", duration: 300)
        defer { host.terminate() }
        try await Self.withBrowser(windowSize: (390, 844), host: nil) { browser in
            try await Self.join(browser, link)
            try await browser.wait(until: "return (window.tandem.state().problem || '').includes('does not decode HEVC video')", within: .seconds(60))
            _ = try await host.output(containing: "HEVC", within: 30)  // the party lists why Wendy cannot play
            let shot = try await browser.screenshot()
            #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            try shot.write(to: URL(fileURLWithPath: folder.path("phone.png")))

            let wrong = link.replacingOccurrences(of: "#key=", with: "#key=x")
            try await browser.navigate(to: "about:blank")  // another fragment alone would not load the page again
            try await Self.join(browser, wrong, name: "Mallory")
            try await browser.wait(until: "return (window.tandem.state().problem || '').includes('check that the link was copied whole')", within: .seconds(60))

            // The media refused (a cookie that is not the party's token): the element's error is one line
            // in the page, and the party hears that this guest cannot play.
            let (plain, plainLink) = try await Self.host(Repository.asset("h264-aac.mp4"), script: "play@1", duration: 300)
            defer { plain.terminate() }
            let party = String(plainLink.split(separator: "/p/")[1].split(separator: "#")[0])
            try await browser.navigate(to: "about:blank")
            try await browser.navigate(to: plainLink)
            try await browser.execute("document.cookie = 'tandem-media=\(String(repeating: "0", count: 64)); Path=/party/\(party)/media; SameSite=Strict; Secure'")
            try await browser.sendKeys("Eve", to: try await browser.element(css: "#name"))
            try await browser.click(try await browser.element(css: "#join-button"))
            try await browser.wait(until: "return (window.tandem.state().problem || '').includes('the browser could not play h264-aac.mp4')", within: .seconds(60))
            _ = try await plain.output(containing: "could not play", within: 30)

            try await browser.navigate(to: String(link.split(separator: "#")[0]))
            let line = try await browser.text(of: try await browser.element(css: "#problem"))
            #expect(line.contains("no party key"), "\(line)")
        }
    }

    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aGuestOnAPartyServerRidesOutItsRestart() async throws {
        let state = try TemporaryFolder("serve-state")
        defer { state.remove() }
        let port = try LoopbackPort.free()
        let serveArguments = ["serve", "--listen", "127.0.0.1:\(port)", "--state-dir", state.path, "--no-port-mapping", "--cache-size", "0"]
        var serve = try ChildProcess.tandem(serveArguments, standardError: .standardOutput)
        defer { serve.terminate() }  // the one running at the end, the first or its restart
        _ = try await serve.output(containing: "listening on", within: 60)
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--server", "127.0.0.1:\(port)", "--name", "Hal",
                                            "--script", "play@1", "--duration", "300", Repository.asset("party.mp4")],
                                           standardError: .standardOutput)
        defer { host.terminate() }
        let line = try await host.line(within: 60) { $0.contains("\"web\"") }
        let link = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["web"] as? String)
        #expect(link.hasPrefix("https://127.0.0.1:\(port)/p/"), "the server's own origin serves the page")
        try await Self.withBrowser(host: host) { browser in
            // The host's file reaches the browser through the server's relay.
            try await Self.join(browser, link)
            try await browser.wait(until: "const s = window.tandem.state(); return s.ready && !s.paused", within: .seconds(60))
            let before = try await Self.state(browser)["epoch"]?.int ?? 0
            serve.kill()
            _ = try await serve.exit(within: 30)
            try await browser.wait(until: "return window.tandem.state().phase == 'waiting'", within: .seconds(60))
            serve = try ChildProcess.tandem(serveArguments, standardError: .standardOutput)
            _ = try await serve.output(containing: "listening on", within: 60)
            // The host re-creates the party (a later epoch), the page takes its seat back and its clock anew.
            try await browser.wait(until: "const s = window.tandem.state(); return s.phase == 'seated' && s.epoch > \(before) && s.ready && !s.paused",
                                   within: .seconds(60))
            let after = try await Self.state(browser)
            #expect(abs(after["errorMs"]?.double ?? .infinity) < 100, "\(after)")
        }
    }

    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aGuestAllowedToControlPlaysAndPausesAndSeesTheChatOnRejoining() async throws {
        let (host, link) = try await Self.host(Repository.asset("party.mp4"), script: "", duration: 300, extra: ["--control", "everyone"])
        defer { host.terminate() }
        try await Self.withBrowser(host: host) { browser in
            try await Self.join(browser, link)
            try await browser.wait(until: "const s = window.tandem.state(); return s.ready && s.paused", within: .seconds(60))
            #expect(try await browser.attribute("disabled", of: try await browser.element(css: "#play")) == nil, "the party lets guests control")
            // The page's button plays the party for everyone; the space key pauses it, as in the window.
            try await browser.click(try await browser.element(css: "#play"))
            _ = try await host.output(containing: "Wendy: play", within: 30)
            try await browser.wait(until: "const s = window.tandem.state(); return s.ready && !s.paused", within: .seconds(60))
            try await browser.execute("document.activeElement.blur()")
            try await browser.sendKeys(" ", to: try await browser.element(css: "body"))
            _ = try await host.output(containing: "Wendy: pause", within: 30)
            try await browser.wait(until: "return window.tandem.state().paused", within: .seconds(60))
            try await browser.sendKeys("remember me\n", to: try await browser.element(css: "#chat-input"))
            _ = try await host.output(containing: "remember me", within: 30)
            // Joining again (a reload: a new member) shows what was said before.
            try await browser.navigate(to: "about:blank")
            try await Self.join(browser, link, name: "2")
            try await browser.wait(until: "return document.querySelector('#chat').textContent.includes('remember me')", within: .seconds(60))
        }
    }

    /// The page plays the host's remux of a file its browser cannot open: ready and playing, with no
    /// problem said, sound decoded (Chromium would play AC-3 silently: this is the host's AAC) and
    /// pictures shown.
    static func playsTheRemux(_ browser: WebDriver, within limit: Duration) async throws {
        try await browser.wait(until: "const s = window.tandem.state(); return s.source == 'remux' && s.ready && !s.paused && s.currentTime > 2",
                               within: limit)
        let playing = try await Self.state(browser)
        #expect(playing["problem"]?.string == nil, "\(playing)")
        try await browser.wait(until: "const v = document.querySelector('video'); return v.webkitAudioDecodedByteCount > 10000 && v.getVideoPlaybackQuality().totalVideoFrames > 10",
                               within: .seconds(60))
    }

    /// The item's subtitle track, as WebVTT from the host, holds its one cue, `text`.
    static func showsTheOneCue(_ text: String, in browser: WebDriver) async throws {
        _ = try await browser.execute("document.querySelector('video').textTracks[0].mode = 'hidden'; return true")
        try await browser.wait(until: "const t = document.querySelector('video').textTracks[0]; return t.cues && t.cues.length == 1 && t.cues[0].text == '\(text)'",
                               within: .seconds(60))
    }

    /// A Matroska no browser opens as it is, made by ffmpeg in `folder`: H.264 pictures, AC-3 5.1
    /// sound, and an SRT track whose one cue (1–3 s) says `cue`. Returns its path.
    static func matroskaWithAC3(in folder: TemporaryFolder, seconds: Int, cue: String) async throws -> String {
        let subtitles = folder.path("film.srt")
        try "1\n00:00:01,000 --> 00:00:03,000\n\(cue)\n\n".write(toFile: subtitles, atomically: true, encoding: .utf8)
        let film = folder.path("film.mkv")
        let made = try await ChildProcess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=\(seconds)",
                                                         "-f", "lavfi", "-i", "sine=f=440:r=48000:d=\(seconds)", "-i", subtitles,
                                                         "-map", "0:v", "-map", "1:a", "-map", "2:s", "-c:v", "libx264", "-preset", "veryfast",
                                                         "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "ac3", "-ac", "6", "-c:s", "srt", film])
        try #require(made.status == 0, "ffmpeg: \(made.standardError)")
        return film
    }

    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aMatroskaFileWithAC3SoundPlaysThroughTheHostsRemux() async throws {
        let folder = try TemporaryFolder("browser-remux")
        defer { folder.remove() }
        // 90 s: after the host's seek to 25 s (at 14 s) the party plays long enough for a page that
        // joined slowly on a loaded machine to land; with 40 s it reached the end and paused first.
        let film = try await Self.matroskaWithAC3(in: folder, seconds: 90, cue: "Hello from the host")
        let (host, link) = try await Self.host(film, script: "play@1,seek:25@14", duration: 300)
        defer { host.terminate() }
        try await Self.withBrowser(host: host) { browser in
            try await Self.join(browser, link)
            // Matroska with AC-3: not playable as it is, so the page plays the host's remux (AAC sound).
            try await Self.playsTheRemux(browser, within: .seconds(40))
            // The host's seek lands it again, in sync.
            try await browser.wait(until: "const s = window.tandem.state(); return s.epoch >= 3 && s.ready && !s.paused && s.currentTime > 25",
                                   within: .seconds(60))
            let landed = try await Self.state(browser)
            #expect(abs(landed["errorMs"]?.double ?? .infinity) < 100, "\(landed)")
            // The subtitle track, as WebVTT from the host.
            try await Self.showsTheOneCue("Hello from the host", in: browser)
            print("remuxing guest:", landed)
        }
    }


    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aFileTheHostCannotConvertSaysWhyAndWhatToDo() async throws {
        let folder = try TemporaryFolder("browser-avi")
        defer { folder.remove() }
        // AVI keeps no presentation times: with B-frames its pictures' order is the decoder's to know.
        let film = folder.path("old.avi")
        let made = try await ChildProcess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=4",
                                                         "-c:v", "libx264", film])
        try #require(made.status == 0, "ffmpeg: \(made.standardError)")
        let (host, link) = try await Self.host(film, script: "play@1", duration: 300)
        defer { host.terminate() }
        try await Self.withBrowser(host: host) { browser in
            try await Self.join(browser, link)
            try await browser.wait(until: "const p = window.tandem.state().problem || ''; return p.includes('no presentation times') && p.includes('tandem join')",
                                   within: .seconds(60))
            let state = try await Self.state(browser)
            #expect(state["source"]?.string == nil)
            #expect(state["problem"]?.string?.contains(folder.path) == false, "the host's path stays with the host")
            print("unconvertible:", state["problem"]?.string ?? "")
        }
    }

    @Test(.enabled(if: unavailable == nil, "\(unavailable?.description ?? "")"))
    func aTabInTheBackgroundIsInSyncWhenShownAgain() async throws {
        let (host, link) = try await Self.host(Repository.asset("party.mp4"), script: "play@1", duration: 300)
        defer { host.terminate() }
        try await Self.withBrowser(host: host) { browser in
            try await Self.join(browser, link)
            // In sync before it goes to the background: a page that joined on a loaded machine may still
            // seek once to correct its landing, which is not what this test is about.
            let inSync = "const s = window.tandem.state(); return s.ready && !s.paused && s.errorMs !== null && Math.abs(s.errorMs) < 50"
            try await browser.wait(until: inSync, within: .seconds(60))
            let seeks = try await Self.state(browser)["stats"]?["seeks"]?.int
            let party = try await browser.openTab()
            try await browser.navigate(to: "about:blank")
            try await Task.sleep(for: .seconds(5))  // the time in the background is the point, not a synchronisation
            try await browser.closeTabAndReturn(to: party)
            let hidden = try await Self.state(browser)
            #expect(hidden["hiddenTimes"]?.int == 1, "the page went to the background: \(hidden)")
            // Shown again, it measures afresh and is in sync: the sound played on meanwhile.
            try await browser.wait(until: inSync, within: .seconds(60))
            #expect(try await Self.state(browser)["stats"]?["seeks"]?.int == seeks, "a tab that kept up is not re-seeked")
        }
    }
}
