import TandemApp
import Foundation
import Logging
import Synchronization
import MediaTime
import PartyKit
import PartySecurity
import WebSocketTransport

/// One `tandem bench load` run: connects the members party by party (hosts first, so their hellos
/// make the parties), lets their clocks settle, measures a window, waits for the window's answers,
/// and closes everything.
///
/// The client is kept light: connections live on NIO's shared event loops (one per core), each member
/// handles what it reads there (no task per member), and one ticker task drives every member's pings,
/// statuses and commands.
package struct LoadRun {
    /// A host sends a command (play, seek, pause in turn) this often in the window: "every few seconds".
    package static let commandInterval = 5.0
    /// Connections being opened at once: well below the server's listen backlog (256).
    package static let connectConcurrency = 64
    /// Attempts to open one member's connection. A server at its limit (thousands of TLS handshakes
    /// joining at once on the machine that also runs this client) may miss the upgrade's timeout for a
    /// few of them; a real member tries again, and a run should not end for it. Retries are reported.
    package static let connectAttempts = 3
    /// Wait before a member's next attempt, times the attempt's number.
    package static let connectRetryDelay = 1.0
    /// How long the members may take to connect and be welcomed, per thousand members.
    package static let joinTimeoutPerThousand = 60.0
    /// How long after the window the run waits for the window's pongs and fan-outs still on their way.
    package static let drainTimeout = 10.0
    /// The share of members whose time pings must have backed off for the clocks to count as settled:
    /// a member whose estimate a disturbance just reset is at the steady pace, as in any real party.
    package static let settledShare = 0.9
    /// How often the ticker looks for members with something due: finer than the join burst's 15 ms pace.
    package static let tickInterval = 0.005

    /// Members joining per second by default. A joiner pings 10 times a second (after its burst) until its
    /// clock offset has converged, a second or two on a quiet link; everyone joining at once keeps the
    /// machine so busy that no estimate converges (round trips of seconds), and nobody ever slows down:
    /// at 5,000 members on two cores the connections then went silent for 30 s and closed (idle timeout).
    /// 250 a second keeps a few hundred members at the full pace at any time.
    package static let defaultJoinRate = 250.0

    package var members: Int
    package var parties: Int
    /// Members joining per second (``defaultJoinRate``).
    package var joinRate: Double
    package var warmUp: Double
    /// Longest wait for the members' clocks to settle after the warm-up (``settledShare``).
    package var settle: Double
    package var duration: Double
    package var logger: Logger

    package init(members: Int, parties: Int, joinRate: Double, warmUp: Double, settle: Double, duration: Double, logger: Logger) {
        self.members = members
        self.parties = parties
        self.joinRate = joinRate
        self.warmUp = warmUp
        self.settle = settle
        self.duration = duration
        self.logger = logger
    }

    private static let clock = MonotonicTimeSource()

    /// Runs against `server`; `idleRSS`: the server's VmRSS before any member connected (nil: unknown).
    package func run(server: LoadServer, idleRSS: Int?) async throws -> LoadSummary {
        let trust: ServerTrust = server.fingerprint.map { .pinned($0) } ?? .insecure
        var rng = SystemRandomNumberGenerator()
        let partyList = (0..<parties).map { LoadParty(index: $0, id: "load-\($0)", key: PartyLink.generateKey(using: &rng)) }
        let sizes = (0..<parties).map { members / parties + ($0 < members % parties ? 1 : 0) }
        let roster = LoadRoster()
        let retries = LoadCount()
        let ticker = Task {
            while !Task.isCancelled {
                roster.tick(now: Self.clock.now())
                try? await Task.sleep(nanoseconds: UInt64(Self.tickInterval * 1e9))
            }
        }
        defer { ticker.cancel() }

        // Hosts first: their hellos create the parties the guests then join.
        for wave in [true, false] {
            let seats = partyList.flatMap { party in
                (wave ? 0..<1 : 1..<max(1, sizes[party.index])).map { (party, $0) }
            }
            let joined = try await connect(seats, server: server, trust: trust, roster: roster, retries: retries)
            roster.add(joined)
            try await waitUntil(timeout: Self.joinTimeoutPerThousand * max(1, Double(members) / 1000),
                                what: "\(wave ? "hosts" : "members") to be welcomed") {
                roster.allJoined
            }
        }
        let everyone = roster.all
        try await Task.sleep(nanoseconds: UInt64(warmUp * 1e9))
        // Real members are minutes into their party, their clock estimates converged and their pings
        // backed off: a window right after the joins measures a party's first seconds instead. The
        // drift fit that backing off waits for needs ten seconds of exchanges on a quiet link, longer
        // with jitter (and a loaded loopback has plenty).
        let settleStart = Self.clock.now()
        if settle > 0 {
            try? await waitUntil(timeout: settle, what: "the members' clocks to settle") {
                Double(everyone.reduce(0) { $0 + ($1.isBackingOff ? 1 : 0) }) >= Self.settledShare * Double(everyone.count)
            }
        }
        let settled = Self.clock.now() - settleStart

        // The window.
        let start = Self.clock.now()
        for member in everyone where member.isHost {
            // Hosts are spread over one interval, so commands do not all land at once.
            member.scheduleCommands(from: start + Self.commandInterval * Double(member.party.index + 1) / Double(parties))
        }
        let serverStart = try LoadProcessUsage.read(pid: server.pid)
        let clientStart = try LoadProcessUsage.read(pid: 0)
        roster.phase = .measuring
        try await Task.sleep(nanoseconds: UInt64(duration * 1e9))
        roster.phase = .draining
        let end = Self.clock.now()
        let serverEnd = try LoadProcessUsage.read(pid: server.pid)
        let clientEnd = try LoadProcessUsage.read(pid: 0)
        ticker.cancel()
        for member in everyone { member.recordPacing() }
        Self.reportLostConnections(everyone)

        // The window's answers still on their way.
        let expected = partyList.reduce(0) { $0 + $1.commandCount * sizes[$1.index] }
        try? await waitUntil(timeout: Self.drainTimeout, what: "the window's answers") {
            let s = Self.merged(everyone)
            return s.pongsReceived >= s.pingsSent && s.fanOutsReceived >= expected
        }
        let statistics = Self.merged(everyone)
        for member in everyone {
            member.closing()
            member.connection.close(reason: "benchmark over")
        }
        try? await waitUntil(timeout: Self.drainTimeout, what: "the connections to close") {
            everyone.allSatisfy { $0.connection.closeReason != nil }
        }
        var summary = LoadSummary.make(
            statistics: statistics, members: members, parties: parties, tls: server.fingerprint != nil, seconds: end - start,
            settleSeconds: settled,
            commandsSent: everyone.reduce(0) { $0 + $1.commandsSent }, fanOutsExpected: expected,
            server: (serverStart, serverEnd), serverIdleRSS: idleRSS, client: (clientStart, clientEnd))
        summary.connectRetries = retries.value
        return summary
    }

    /// Says on standard error how many connections closed before the window's end, and why (the most
    /// common reasons): a run whose members lost their connections measures nothing.
    package static func reportLostConnections(_ members: [LoadMember]) {
        let reasons = members.compactMap(\.connection.closeReason)
        guard !reasons.isEmpty else { return }
        let common = Dictionary(grouping: reasons, by: { $0 }).map { ($0.key, $0.value.count) }.sorted { $0.1 > $1.1 }.prefix(3)
        printError("\(reasons.count) of \(members.count) connections closed before the window's end: "
                   + common.map { "\($0.1)× \($0.0)" }.joined(separator: "; "))
    }

    package static func merged(_ members: [LoadMember]) -> LoadStatistics {
        members.reduce(into: LoadStatistics()) { $0.merge($1.statistics) }
    }

    /// Opens the connections of `seats` (party, seat number), at most ``connectConcurrency`` at a time,
    /// and says hello on each.
    private func connect(_ seats: [(LoadParty, Int)], server: LoadServer, trust: ServerTrust,
                         roster: LoadRoster, retries: LoadCount) async throws -> [LoadMember] {
        let limits = WebSocketLimits(maxMessageBytes: PartyProtocol.maxMessageBytes)
        let logger = self.logger
        let host = server.host, port = server.port
        return try await withThrowingTaskGroup(of: LoadMember.self) { group in
            var results: [LoadMember] = []
            var pending = seats.enumerated()[...]
            let first = Self.clock.now()
            let joinRate = self.joinRate
            func add() {
                guard let (order, (party, seat)) = pending.popFirst() else { return }
                group.addTask {
                    // Joins paced at `joinRate` a second.
                    let wait = first + Double(order) / joinRate - Self.clock.now()
                    if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
                    let name = seat == 0 ? "host-\(party.index)" : "m\(seat)-\(party.index)"
                    var attempt = 1
                    let connection: WebSocketConnection
                    while true {
                        do {
                            connection = try await trust.connect(host: host, port: port, path: "/party/\(party.id)",
                                                                 limits: limits, logger: logger)
                            break
                        } catch where attempt < Self.connectAttempts {
                            if attempt == 1 { retries.add() }
                            try await Task.sleep(nanoseconds: UInt64(Self.connectRetryDelay * Double(attempt) * 1e9))
                            attempt += 1
                        } catch {
                            throw BenchError("member \(name) of party \(party.id) could not connect to \(host):\(port) in \(attempt) attempts: \(error)")
                        }
                    }
                    let create = seat == 0 ? PartyConfig(items: [Self.item]) : nil
                    let member = LoadMember(party: party, isHost: seat == 0, name: name,
                                            hello: Hello(party: party.id, key: party.key, name: name, create: create),
                                            connection: connection)
                    member.handleInbound(phase: { roster.phase }, now: { Self.clock.now() })
                    member.start(now: Self.clock.now())
                    return member
                }
            }
            for _ in 0..<Self.connectConcurrency { add() }
            while let next = try await group.next() {
                results.append(next)
                add()
            }
            return results
        }
    }

    /// The one item of every party: a URL each member would open itself, so the server relays no media.
    package static let item = MediaItem(title: "load.mp4", url: "http://127.0.0.1:9/load.mp4",
                                identity: MediaIdentity(duration: 600, streams: ["video h264 640x360"]))

    /// Polls `done` every 50 ms until it holds; throws naming `what` after `timeout` seconds.
    private func waitUntil(timeout: Double, what: String, _ done: () -> Bool) async throws {
        let deadline = Self.clock.now() + timeout
        while !done() {
            if Self.clock.now() > deadline { throw BenchError("gave up waiting for \(what) after \(Int(timeout)) s") }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }
}

/// A count the run's tasks add to.
package final class LoadCount: Sendable {
    private let count = Atomic<Int>(0)
    package func add() { count.add(1, ordering: .relaxed) }
    package var value: Int { count.load(ordering: .relaxed) }
}
