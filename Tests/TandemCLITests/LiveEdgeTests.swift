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
    /// Slack on a hold, in seconds: the edge is known to a segment (1 s here), and a status line is
    /// read up to a second after the player's read-ahead moved on.
    static let slack = 1.5

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
        // Settled: playing for a few seconds, the read-ahead caught up with the edge.
        let line = try await host.line(within: 60) { line in
            guard let s = JSONLines.events("status", in: line).first, s["playing"] as? Bool == true else { return false }
            return (s["position"] as? Double ?? 0) >= 4
        }
        let behind = try #require(JSONLines.events("status", in: line).first?["behindLiveSeconds"] as? Double, "\(line)")
        #expect(abs(behind - hold) <= Self.slack, "behind the edge: \(behind) s, hold \(hold) s")
    }

    /// The broadcaster ends the stream (its playlist gets `EXT-X-ENDLIST`): every member plays on to
    /// its last picture and stops there, in sync, and nobody waits for more or fails.
    @Test func aStreamThatEndsEndsThePartysItem() async throws {
        let live = try await LiveHLS.start(segments: 4)
        let server = try await StaticFileServer.start(root: live.folder.path)
        var processes: [ChildProcess] = []
        defer {
            processes.forEach { $0.kill() }
            live.stopNow()
            Task { await server.stop() }
        }
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--script", "play@0.5",
                                            "--duration", "90", server.url(LiveHLS.playlist)])
        processes.append(host)
        let linkLine = try await host.line(within: 60) { $0.contains("\"link\"") }
        let link = try #require(JSONLines.objects(linkLine).first?["link"] as? String)
        let empty = try TemporaryFolder("live-end")
        defer { empty.remove() }
        let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Ann", "--media", empty.path, "--duration", "80", link])
        processes.append(guest)
        @Sendable func status(_ line: String) -> [String: Any]? { JSONLines.events("status", in: line).first }
        _ = try await guest.line(within: 90) { line in
            guard let s = status(line), s["synced"] as? Bool == true else { return false }
            return (s["position"] as? Double ?? 0) >= 2
        }
        try await live.end()
        // Each says so once, and the party pauses at the end for everyone: no clock counts on past it
        // (before, both went on "playing" for as long as the party lasted).
        var stops: [Double] = []
        for member in [host, guest] {
            _ = try await member.line(within: 60) { $0.contains("the live stream has ended") }
            let paused = try await member.line(within: 30) { line in
                guard let s = status(line), s["playing"] as? Bool == false, s["synced"] as? Bool == true else { return false }
                return (s["position"] as? Double ?? 0) >= 2
            }
            stops.append(try #require(status(paused)?["position"] as? Double))
        }
        #expect(abs(stops[0] - stops[1]) < 0.05, "paused at \(stops)")
        #expect(host.standardOutput.components(separatedBy: "the live stream has ended").count == 2, "\(host.standardOutput.suffix(600))")
    }

    /// A pause lets the party fall behind the edge; `live` brings host and guest back to the hold.
    @Test func theLiveCommandBringsEveryoneBackToTheHold() async throws {
        let live = try await LiveHLS.start(segments: 6)
        let server = try await StaticFileServer.start(root: live.folder.path)
        var processes: [ChildProcess] = []
        defer {
            processes.forEach { $0.kill() }
            live.stopNow()
            Task { await server.stop() }
        }
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--live-delay", "2",
                                            "--script", "play@0.5,pause@2,play@8,live@11", "--duration", "90", server.url(LiveHLS.playlist)])
        processes.append(host)
        let linkLine = try await host.line(within: 60) { $0.contains("\"link\"") }
        let link = try #require(JSONLines.objects(linkLine).first?["link"] as? String)
        let empty = try TemporaryFolder("live-edge")
        defer { empty.remove() }
        let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Ann", "--media", empty.path, "--duration", "80", link])
        processes.append(guest)
        @Sendable func status(_ line: String) -> [String: Any]? { JSONLines.events("status", in: line).first }
        // Behind after the pause: playing again, well past the hold.
        let fallen = try await host.line(within: 90) { line in
            guard let s = status(line), s["playing"] as? Bool == true, (s["position"] as? Double ?? 0) > 2 else { return false }
            return (s["behindLiveSeconds"] as? Double ?? 0) >= 5
        }
        let fallenAt = try #require(status(fallen)?["position"] as? Double)
        // Then back at the hold, further on in the stream than playing on would have taken it.
        for member in [host, guest] {
            let back = try await member.line(within: 90) { line in
                guard let s = status(line), s["playing"] as? Bool == true, s["synced"] as? Bool == true,
                      (s["position"] as? Double ?? 0) > fallenAt + 4 else { return false }
                return abs((s["behindLiveSeconds"] as? Double ?? 99) - 2) <= Self.slack
            }
            #expect(status(back) != nil, "\(back)")
        }
    }
}
