import Foundation
import Testing
import TestSupport
import TestSupportHTTP

/// A party of a live HLS stream with the built `tandem` (issue 27): ffmpeg makes the stream in the
/// test (`-re`, 1 s segments, a sliding window of 10), StaticFileServer serves it on loopback, and a
/// host and two guests — one joining at once, one once the first has watched 7 s — show the same
/// moment of the stream. Each member's moment is read through its mpv IPC as `tandem-time-sample`
/// (position and the monotonic instant it holds for) plus `tandem-stream-start` (the stream time of
/// position 0), so two members' readings are compared at one instant whatever the IPC delays.
@Suite struct LivePartyTests {
    /// How far apart two members' moments of the stream may be. Before live items the late guest
    /// counted from its own entry into the stream, 7 s (the join gap) off — 9.0 s in a run without
    /// them; in sync, members differ by the drift the sync allows before it re-seeks (200 ms) — tens
    /// of microseconds in a run with them — so this leaves room on both sides.
    static let agreement = 0.5
    /// How long the first guest watches before the second joins: the gap of the issue's report.
    static let joinGap = 7.0

    /// `tandem host` of the live stream at `url` running `script` (its IPC at `ipc`), and its link.
    static func host(_ url: String, script: String, ipc: String? = nil, options: [String] = []) async throws -> (ChildProcess, String) {
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--script", script,
                                            "--duration", "120"] + (ipc.map { ["--ipc", $0] } ?? []) + options + [url])
        let linkLine = try await host.line(within: 60) { $0.contains("\"link\"") }
        return (host, try #require(JSONLines.objects(linkLine).first?["link"] as? String))
    }
    /// Rounds of readings in a row that must agree: one could agree while a member passes by.
    static let roundsInARow = 3

    @Test func membersJoiningSecondsApartShowTheSameMoment() async throws {
        let live = try await LiveHLS.start(segments: 3)
        let server = try await StaticFileServer.start(root: live.folder.path)
        let sockets = ["host", "ann", "bob"].map { temporarySocketPath("live-\($0)") }
        var processes: [ChildProcess] = []
        defer {
            processes.forEach { $0.kill() }
            live.stopNow()
            sockets.forEach { try? FileManager.default.removeItem(atPath: $0) }
            Task { await server.stop() }
        }
        let (host, link) = try await Self.host(server.url(LiveHLS.playlist), script: "play@1", ipc: sockets[0])
        processes.append(host)
        let empty = try TemporaryFolder("live-media")
        defer { empty.remove() }
        func join(_ name: String, ipc: String) throws -> ChildProcess {
            let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", name, "--media", empty.path,
                                                 "--duration", "100", "--ipc", ipc, link])
            processes.append(guest)
            return guest
        }
        let ann = try join("Ann", ipc: sockets[1])
        // Bob joins once Ann has watched the gap, synced (an event of hers, not a sleep).
        _ = try await ann.line(within: 90) { line in
            guard let status = JSONLines.events("status", in: line).first, status["synced"] as? Bool == true,
                  let position = status["position"] as? Double else { return false }
            return position >= Self.joinGap
        }
        let bob = try join("Bob", ipc: sockets[2])
        _ = try await bob.line(within: 90) { line in
            line.contains("\"event\":\"status\"") && line.contains("\"synced\":true") && line.contains("\"playing\":true")
        }
        var clients: [SocketClient] = []
        for socket in sockets { clients.append(try await SocketClient.connect(path: socket)) }
        var inARow = 0
        var last: [Double] = []
        let agreed = await eventually(within: 45, every: .milliseconds(300)) {
            // A reading that fails (a member between players) is a round that does not agree.
            guard let moments = try? await Self.moments(clients) else { inARow = 0; return false }
            last = moments.map { $0 - moments[0] }
            inARow = last.allSatisfy { abs($0) < Self.agreement } ? inARow + 1 : 0
            return inARow >= Self.roundsInARow
        }
        #expect(agreed, "moments of the stream, each member's minus the host's (s): \(last); bob: \(bob.standardError.suffix(600))")
        // Bob entered the stream after the host: his own entry is later on the stream's time line,
        // yet his positions count from the party's origin, as everyone's do.
        let starts = try await clients.asyncMap { try await Self.number(Self.property("tandem-stream-start", of: $0)) }
        #expect(Set(starts).count == 1, "stream starts: \(starts)")
        // And each guest's first picture was the party's moment, not a later one (LiveWindow would say so).
        for guest in [ann, bob] { #expect(!guest.standardOutput.contains("left the live stream's window"), "\(guest.standardOutput.suffix(400))") }
        // Their status lines say they are behind the live edge (they read on up to it).
        #expect(JSONLines.events("status", in: bob.standardOutput).contains { ($0["behindLiveSeconds"] as? Double ?? 0) > 0 },
                "\(bob.standardOutput.suffix(400))")
    }

    /// A pause holds everyone on one moment while the window still has it, and the resume goes on
    /// from there together (the stream's moments agree again, and the party did not jump to the edge).
    @Test func aPauseHoldsEveryoneAndTheResumeGoesOnTogether() async throws {
        let live = try await LiveHLS.start(segments: 3)
        let server = try await StaticFileServer.start(root: live.folder.path)
        let sockets = ["host", "ann"].map { temporarySocketPath("live-pause-\($0)") }
        var processes: [ChildProcess] = []
        defer {
            processes.forEach { $0.kill() }
            live.stopNow()
            sockets.forEach { try? FileManager.default.removeItem(atPath: $0) }
            Task { await server.stop() }
        }
        let (host, link) = try await Self.host(server.url(LiveHLS.playlist), script: "play@0.5,pause@4,play@8", ipc: sockets[0])
        processes.append(host)
        let empty = try TemporaryFolder("live-pause")
        defer { empty.remove() }
        let ann = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Ann", "--media", empty.path,
                                           "--duration", "100", "--ipc", sockets[1], link])
        processes.append(ann)
        @Sendable func status(_ line: String) -> [String: Any]? { JSONLines.events("status", in: line).first }
        // Paused (after having played), then playing again past the paused moment.
        let pausedLine = try await ann.line(within: 90) { line in
            guard let s = status(line), s["synced"] as? Bool == true, s["playing"] as? Bool == false else { return false }
            return (s["position"] as? Double ?? 0) > 1
        }
        let paused = try #require(status(pausedLine)?["position"] as? Double)
        _ = try await ann.line(within: 90) { line in
            guard let s = status(line), s["synced"] as? Bool == true, s["playing"] as? Bool == true else { return false }
            return (s["position"] as? Double ?? 0) > paused + 1
        }
        var clients: [SocketClient] = []
        for socket in sockets { clients.append(try await SocketClient.connect(path: socket)) }
        var inARow = 0
        var last: [Double] = []
        var position = 0.0
        let agreed = await eventually(within: 45, every: .milliseconds(300)) {
            guard let moments = try? await Self.moments(clients),
                  let sample = try? await Self.property("tandem-time-sample", of: clients[0]) as? [String: Any] else { inARow = 0; return false }
            last = moments.map { $0 - moments[0] }
            position = sample["time-pos"] as? Double ?? 0
            inARow = last.allSatisfy { abs($0) < Self.agreement } ? inARow + 1 : 0
            return inARow >= Self.roundsInARow
        }
        #expect(agreed, "moments after the resume, Ann's minus the host's (s): \(last)")
        // The party went on from the paused moment: its position is the time played, not the edge's.
        #expect(position < paused + 30, "paused at \(paused), now \(position)")
        #expect(!ann.standardOutput.contains("left the live stream's window"), "\(ann.standardOutput.suffix(400))")
    }

    /// A party paused on a moment that then slides out of the playlist's window: a guest joining
    /// after says so in one line instead of showing a frozen picture without a word.
    @Test func aMomentThatLeftTheWindowIsSaidPlainly() async throws {
        let live = try await LiveHLS.start(segments: 3)
        let server = try await StaticFileServer.start(root: live.folder.path)
        var processes: [ChildProcess] = []
        defer {
            processes.forEach { $0.kill() }
            live.stopNow()
            Task { await server.stop() }
        }
        // The host enters a few segments behind the live edge and pauses 1 s in.
        let entered = live.mediaSequence + live.segmentsListed
        let (host, link) = try await Self.host(server.url(LiveHLS.playlist), script: "play@0.5,pause@1.5")
        processes.append(host)
        _ = try await host.output(containing: "pause", within: 60)
        // Every segment up to two past the host's entry has left the window (a segment a second).
        try await waitUntil("the paused moment to leave the window", within: 60, every: .milliseconds(200)) {
            live.mediaSequence > entered + 2
        }
        let empty = try TemporaryFolder("live-window")
        defer { empty.remove() }
        let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Gus", "--media", empty.path, "--duration", "60", link])
        processes.append(guest)
        let notice = try await guest.line(within: 60) { $0.contains("has left the live stream's window") }
        #expect(notice.contains("\"event\":\"notice\""), "\(notice)")
    }

    /// Each member's moment of the stream (position + stream start), carried to the first one's
    /// instant on the machine's monotonic clock (every member plays at rate 1).
    static func moments(_ clients: [SocketClient]) async throws -> [Double] {
        var moments: [Double] = []
        var instant: Double?
        for client in clients {
            let sample = try await property("tandem-time-sample", of: client) as? [String: Any]
            let start = try await number(property("tandem-stream-start", of: client))
            let position = try number(sample?["time-pos"]), at = try number(sample?["at"])
            let base = instant ?? at
            instant = base
            moments.append(position + start + (base - at))
        }
        return moments
    }

    static func property(_ name: String, of client: SocketClient) async throws -> Any? {
        let reply = try await client.request(#"{"command":["get_property","\#(name)"]}"#)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any] else {
            throw Unreadable(what: "\(name): \(reply.debugDescription)")
        }
        return object["data"]
    }

    static func number(_ value: Any?) throws -> Double {
        guard let number = value as? Double else { throw Unreadable(what: "not a number: \(String(describing: value))") }
        return number
    }

    /// An IPC answer that is not what was asked for (a closed connection answers "").
    struct Unreadable: Error { let what: String }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
