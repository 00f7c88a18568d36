import Foundation
import Testing
import TestSupport
import TestSupportHTTP

/// How far behind a live stream's edge a party plays (issue 27): `--live-delay`, the three segments
/// HLS players hold back by default, and the `live` command (End, `/live`, a script's `live`) that
/// brings a party that fell behind back to that hold, for everyone. Each member's `behindLiveSeconds`
/// (what its player read beyond its moment, up to the edge) is the measure; the stream is
/// ffmpeg's (`-re`, 1 s segments) served on loopback.
@Suite struct LiveEdgeTests {
    /// Slack on a hold, in seconds: the edge is known to a segment (1 s here) and moves a segment at
    /// a time; a player hears of a new segment at its next reload of the playlist (a segment later at
    /// most); and the host measures the window a segment apart when one is added between its opens.
    /// Either way, far from the ends of a window of ten: the party at the window's start (10 s) or at
    /// the edge (0) fails.
    static let slack = 2.0
    /// Status lines (one a second) whose median is the hold measured.
    static let readings = 5

    @Test(arguments: [(nil, 3.0), (2.0, 2.0)] as [(Double?, Double)])
    func thePartyHoldsBehindTheEdge(liveDelay: Double?, hold: Double) async throws {
        let live = try await LiveHLS.start(segments: 6)
        let server = try await StaticFileServer.start(root: live.folder.path)
        defer {
            live.stopNow()
            Task { await server.stop() }
        }
        let options = liveDelay.map { ["--live-delay", "\($0)"] } ?? []
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--script", "play@0.5",
                                            "--duration", "60"] + options + [server.url(LiveHLS.playlist)])
        defer { host.kill() }
        // Settled: playing for a few seconds, the read-ahead caught up with the edge. The edge moves a
        // segment at a time and the player hears of it at its next reload: the median of a few lines.
        let settled = 4.0, until = settled + Double(Self.readings)
        _ = try await host.line(within: 60) { line in
            guard let s = JSONLines.events("status", in: line).first, s["playing"] as? Bool == true else { return false }
            return (s["position"] as? Double ?? 0) >= until
        }
        let behind = JSONLines.events("status", in: host.standardOutput).compactMap { s -> Double? in
            guard s["playing"] as? Bool == true, let p = s["position"] as? Double, p >= settled, p < until else { return nil }
            return s["behindLiveSeconds"] as? Double
        }
        try #require(!behind.isEmpty, "\(host.standardOutput.suffix(800))")
        let median = behind.sorted()[behind.count / 2]
        #expect(abs(median - hold) <= Self.slack, "behind the edge: \(behind) s, hold \(hold) s")
    }

    /// The broadcaster ends the stream (its playlist gets `EXT-X-ENDLIST`): every member plays on to
    /// its last picture and stops there, in sync, and nobody waits for more or fails.
    @Test func aStreamThatEndsEndsThePartysItem() async throws {
        try await Self.withParty(segments: 4, script: "play@0.5") { live, host, guest in
            _ = try await guest.line(within: 90) { line in
                guard let s = Self.status(line), s["synced"] as? Bool == true else { return false }
                return (s["position"] as? Double ?? 0) >= 2
            }
            try await live.end()
            // Each says so once, and the party pauses at the end for everyone: no clock counts on past it
            // (before, both went on "playing" for as long as the party lasted).
            var stops: [Double] = []
            for member in [host, guest] {
                _ = try await member.line(within: 60) { $0.contains("the live stream has ended") }
                // Paused lines, the last of three: the first may come as the pause is heard, before its instant.
                @Sendable func paused() -> [Double] {
                    JSONLines.events("status", in: member.standardOutput).compactMap { s in
                        guard s["playing"] as? Bool == false, s["synced"] as? Bool == true, let p = s["position"] as? Double, p >= 2 else { return nil }
                        return p
                    }
                }
                try await waitUntil("three paused status lines", within: 30, every: .milliseconds(200)) { paused().count >= 3 }
                stops.append(try #require(paused().last))
            }
            #expect(abs(stops[0] - stops[1]) < 0.05, "paused at \(stops)")
            #expect(host.standardOutput.components(separatedBy: "the live stream has ended").count == 2, "\(host.standardOutput.suffix(600))")
        }
    }

    /// A pause lets the party fall behind the edge; `live` brings host and guest back to the hold.
    @Test func theLiveCommandBringsEveryoneBackToTheHold() async throws {
        try await Self.withParty(segments: 6, script: "play@0.5,pause@2,play@8,live@11", options: ["--live-delay", "2"]) { _, host, guest in
            // Behind after the pause: playing again, well past the hold.
            let fallen = try await host.line(within: 90) { line in
                guard let s = Self.status(line), s["playing"] as? Bool == true, (s["position"] as? Double ?? 0) > 2 else { return false }
                return (s["behindLiveSeconds"] as? Double ?? 0) >= 5
            }
            let fallenAt = try #require(Self.status(fallen)?["position"] as? Double)
            // Then back at the hold, further on in the stream than playing on would have taken it.
            for member in [host, guest] {
                let back = try await member.line(within: 90) { line in
                    guard let s = Self.status(line), s["playing"] as? Bool == true, s["synced"] as? Bool == true,
                          (s["position"] as? Double ?? 0) > fallenAt + 4 else { return false }
                    return abs((s["behindLiveSeconds"] as? Double ?? 99) - 2) <= Self.slack
                }
                #expect(Self.status(back) != nil, "\(back)")
            }
        }
    }

    /// A pause longer than the window and the 30 s a network input reads ahead: every member goes
    /// on reading the stream while paused (before, reading stopped 30 s ahead, and the segments
    /// after left the playlist's window and were lost), and the party resumes from its moment.
    @Test func aLongPauseIsHeldByReadingOn() async throws {
        let pause = 40.0
        try await Self.withParty(segments: 4, script: "play@0.5,pause@2,play@\(2 + pause)") { _, host, guest in
            for member in [host, guest] {
                let held = try await member.line(within: 90) { line in
                    guard let s = Self.status(line), s["playing"] as? Bool == false, s["synced"] as? Bool == true else { return false }
                    return (s["behindLiveSeconds"] as? Double ?? 0) >= Self.networkReadAhead + 5
                }
                #expect(Self.status(held) != nil)
            }
            let resumed = try await guest.line(within: 60) { line in
                guard let s = Self.status(line), s["playing"] as? Bool == true, s["synced"] as? Bool == true else { return false }
                return (s["position"] as? Double ?? 0) > 3
            }
            // On from the paused moment, not from wherever the stream had got to.
            #expect((Self.status(resumed)?["position"] as? Double ?? 99) < 10, "\(resumed)")
        }
    }

    /// A hold the playlist cannot give is refused before the party starts, naming the stream and its
    /// window; a hold for a party with no live stream is said to be ignored.
    @Test func aLiveDelayThatCannotHoldIsSaid() async throws {
        let live = try await LiveHLS.start(segments: 4)
        let server = try await StaticFileServer.start(root: live.folder.path)
        defer {
            live.stopNow()
            Task { await server.stop() }
        }
        let url = server.url(LiveHLS.playlist)
        let tooLong = try await ChildProcess.runTandem(["host", "--headless", "--listen", "127.0.0.1:0", "--duration", "1",
                                                        "--live-delay", "60", url], within: 60)
        #expect(tooLong.status == 1)
        #expect(tooLong.standardError.hasPrefix("tandem: \(url): --live-delay 60 is longer than the "), "\(tooLong.standardError)")
        #expect(tooLong.standardError.contains(" s the stream keeps (its playlist's window)"))
        let file = try await ChildProcess.runTandem(["host", "--headless", "--listen", "127.0.0.1:0", "--duration", "1",
                                                     "--live-delay", "5", Repository.asset("h264-aac.mp4")], within: 60)
        #expect(file.status == 0, "\(file.standardError)")
        #expect(file.standardError.contains("--live-delay holds a live HLS stream's party behind its edge: no item here is one (it is ignored)"),
                "\(file.standardError)")
    }

    /// What a network input that is not live reads ahead (PlayerCore's `ReadAhead.Limits.network`).
    static let networkReadAhead = 30.0

    /// The `status` event of a `--json` line, if it is one.
    @Sendable static func status(_ line: String) -> [String: Any]? { JSONLines.events("status", in: line).first }

    /// A live stream of `segments` listed segments served on loopback, its host (`script`, `options`)
    /// and a guest joining at once ("Ann", without media of her own): `body` runs with them; all
    /// are stopped after, whatever it throws.
    static func withParty(segments: Int, script: String, options: [String] = [],
                          _ body: (LiveHLS, ChildProcess, ChildProcess) async throws -> Void) async throws {
        let live = try await LiveHLS.start(segments: segments)
        let server = try await StaticFileServer.start(root: live.folder.path)
        let empty = try TemporaryFolder("live-edge")
        var processes: [ChildProcess] = []
        defer {
            processes.forEach { $0.kill() }
            live.stopNow()
            empty.remove()
            Task { await server.stop() }
        }
        let (host, link) = try await LivePartyTests.host(server.url(LiveHLS.playlist), script: script, options: options)
        processes.append(host)
        let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Ann", "--media", empty.path, "--duration", "100", link])
        processes.append(guest)
        try await body(live, host, guest)
    }
}
