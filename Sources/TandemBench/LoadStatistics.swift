import TandemApp
import PartySimulator

/// What the members of a `tandem bench load` run counted and measured during its window (every
/// member keeps its own, merged at the end): round trips of their time pings, and the delays from a
/// host sending a command to each member reading the timeline it caused.
package struct LoadStatistics: Sendable, Equatable {
    /// Seconds from a time ping leaving to its pong being read, one per pong of a window ping.
    package var pongRoundTrips: [Double] = []
    /// Seconds from a host's command leaving to one member reading the resulting timeline, one per receipt.
    package var fanOuts: [Double] = []
    /// Time pings sent in the window, and the pongs read for them.
    package var pingsSent = 0
    package var pongsReceived = 0
    /// Timelines of window commands that members read.
    package var fanOutsReceived = 0
    /// Every message the members sent (to the server) and read (from it) in the window.
    package var messagesSent = 0
    package var messagesReceived = 0
    /// Connections that closed before the end.
    package var disconnects = 0
    /// Members whose time pings had backed off (``PingPacer``) at the window's end, and members whose
    /// clock estimate had a fitted drift then (what backing off waits for).
    package var backingOff = 0
    package var driftFitted = 0

    package mutating func merge(_ other: LoadStatistics) {
        pongRoundTrips += other.pongRoundTrips
        fanOuts += other.fanOuts
        pingsSent += other.pingsSent
        pongsReceived += other.pongsReceived
        fanOutsReceived += other.fanOutsReceived
        messagesSent += other.messagesSent
        messagesReceived += other.messagesReceived
        disconnects += other.disconnects
        backingOff += other.backingOff
        driftFitted += other.driftFitted
    }
}

/// The result of a `tandem bench load` run: percentiles by the one definition every benchmark uses
/// (``Percentile``, nearest rank), and the server's CPU and memory shared out per member and per message.
package struct LoadSummary: Encodable, Sendable, Equatable {
    package var members: Int
    package var parties: Int
    package var tls: Bool
    /// Length of the measuring window, seconds.
    package var seconds: Double
    /// How long the run waited after the warm-up for the members' pings to back off (``LoadRun/settle``).
    package var settleSeconds: Double
    package var pongP50Ms: Double
    package var pongP99Ms: Double
    package var fanOutP50Ms: Double
    package var fanOutP99Ms: Double
    package var pingsSent: Int
    package var pongsReceived: Int
    /// Time pings per member per second of the window: 10 at the steady pace, 1 once backed off to the cap.
    package var pingsPerMemberPerSecond: Double
    /// Members whose pings had backed off at the window's end, and whose clock drift was fitted then.
    package var membersBackingOff: Int
    package var membersDriftFitted: Int
    package var commandsSent: Int
    /// Receipts that were due: each window command once per member of its party.
    package var fanOutsExpected: Int
    package var fanOutsReceived: Int
    package var disconnects: Int
    /// Connections that took more than one attempt to open (``LoadRun/connectAttempts``).
    package var connectRetries: Int = 0
    /// Messages crossing the server in the window: read by it (what members sent) and written by it (what they read).
    package var serverMessagesIn: Int
    package var serverMessagesOut: Int
    /// Cores the server used over the window (CPU seconds per second).
    package var serverCores: Double
    /// Server CPU time per member per second of the window, in µs.
    package var serverCPUPerMemberUs: Double
    /// Server CPU time per message crossing it (read or written), in µs.
    package var serverCPUPerMessageUs: Double
    /// Members one core of this server carries at this load.
    package var membersPerCore: Double
    /// The server's resident memory grown by the members (VmRSS at the window's end less before they
    /// connected), per member, in KiB; `nan` for a server this run did not start.
    package var serverRSSPerMemberKiB: Double
    package var serverRSSMiB: Double
    /// Cores this client itself used over the window (it shares the machine with the server).
    package var clientCores: Double

    /// The summary of `statistics` gathered over `seconds`, with the server's (and this process's) usage
    /// read at the window's start and end; `serverIdleRSS`: the server's VmRSS before any member connected.
    package static func make(
        statistics: LoadStatistics, members: Int, parties: Int, tls: Bool, seconds: Double, settleSeconds: Double = 0,
        commandsSent: Int, fanOutsExpected: Int,
        server: (start: LoadProcessUsage, end: LoadProcessUsage), serverIdleRSS: Int?,
        client: (start: LoadProcessUsage, end: LoadProcessUsage)
    ) -> LoadSummary {
        let rtt = statistics.pongRoundTrips.sorted()
        let fan = statistics.fanOuts.sorted()
        let serverCPU = max(0, server.end.cpuSeconds - server.start.cpuSeconds)
        let messages = statistics.messagesSent + statistics.messagesReceived
        let cores = seconds > 0 ? serverCPU / seconds : .nan
        let perMember = members > 0 && seconds > 0 ? serverCPU / Double(members) / seconds : .nan
        return LoadSummary(
            members: members, parties: parties, tls: tls, seconds: seconds, settleSeconds: settleSeconds,
            pongP50Ms: Percentile.nearestRank(rtt, 0.5) * 1000, pongP99Ms: Percentile.nearestRank(rtt, 0.99) * 1000,
            fanOutP50Ms: Percentile.nearestRank(fan, 0.5) * 1000, fanOutP99Ms: Percentile.nearestRank(fan, 0.99) * 1000,
            pingsSent: statistics.pingsSent, pongsReceived: statistics.pongsReceived,
            pingsPerMemberPerSecond: members > 0 && seconds > 0 ? Double(statistics.pingsSent) / Double(members) / seconds : .nan,
            membersBackingOff: statistics.backingOff, membersDriftFitted: statistics.driftFitted,
            commandsSent: commandsSent, fanOutsExpected: fanOutsExpected, fanOutsReceived: statistics.fanOutsReceived,
            disconnects: statistics.disconnects,
            serverMessagesIn: statistics.messagesSent, serverMessagesOut: statistics.messagesReceived,
            serverCores: cores,
            serverCPUPerMemberUs: perMember * 1e6,
            serverCPUPerMessageUs: messages > 0 ? serverCPU / Double(messages) * 1e6 : .nan,
            membersPerCore: perMember > 0 ? 1 / perMember : .nan,
            serverRSSPerMemberKiB: serverIdleRSS.map { members > 0 ? Double(server.end.residentBytes - $0) / Double(members) / 1024 : .nan } ?? .nan,
            serverRSSMiB: Double(server.end.residentBytes) / 1_048_576,
            clientCores: seconds > 0 ? max(0, client.end.cpuSeconds - client.start.cpuSeconds) / seconds : .nan
        )
    }

    /// Whether every window ping got its pong and every window command reached every member.
    package var isComplete: Bool {
        pongsReceived == pingsSent && fanOutsReceived == fanOutsExpected && disconnects == 0
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: EventField.self)
        try c.encode(event: "load")
        try c.encode(members, forKey: "members")
        try c.encode(parties, forKey: "parties")
        try c.encode(tls, forKey: "tls")
        try c.encode(number: seconds, forKey: "seconds")
        try c.encode(number: settleSeconds, forKey: "settleSeconds")
        try c.encode(number: pongP50Ms, forKey: "pongP50Ms")
        try c.encode(number: pongP99Ms, forKey: "pongP99Ms")
        try c.encode(number: fanOutP50Ms, forKey: "fanOutP50Ms")
        try c.encode(number: fanOutP99Ms, forKey: "fanOutP99Ms")
        try c.encode(pingsSent, forKey: "pingsSent")
        try c.encode(pongsReceived, forKey: "pongsReceived")
        try c.encode(number: pingsPerMemberPerSecond, forKey: "pingsPerMemberPerSecond")
        try c.encode(membersBackingOff, forKey: "membersBackingOff")
        try c.encode(membersDriftFitted, forKey: "membersDriftFitted")
        try c.encode(commandsSent, forKey: "commandsSent")
        try c.encode(fanOutsExpected, forKey: "fanOutsExpected")
        try c.encode(fanOutsReceived, forKey: "fanOutsReceived")
        try c.encode(disconnects, forKey: "disconnects")
        try c.encode(connectRetries, forKey: "connectRetries")
        try c.encode(serverMessagesIn, forKey: "serverMessagesIn")
        try c.encode(serverMessagesOut, forKey: "serverMessagesOut")
        try c.encode(number: serverCores, forKey: "serverCores")
        try c.encode(number: serverCPUPerMemberUs, forKey: "serverCPUPerMemberUs")
        try c.encode(number: serverCPUPerMessageUs, forKey: "serverCPUPerMessageUs")
        try c.encode(number: membersPerCore, forKey: "membersPerCore")
        try c.encode(number: serverRSSPerMemberKiB, forKey: "serverRSSPerMemberKiB")
        try c.encode(number: serverRSSMiB, forKey: "serverRSSMiB")
        try c.encode(number: clientCores, forKey: "clientCores")
    }

    /// The text report (without `--json`).
    package var text: String {
        func f(_ v: Double, _ digits: Int = 2) -> String { v.isFinite ? String(format: "%.\(digits)f", v) : "n/a" }
        return """
        ## bench load: \(members) members in \(parties) parties, \(tls ? "TLS" : "plain (--insecure)"), \(f(seconds, 1)) s window
        | measure | value |
        |---|---|
        | pong round trip p50 / p99 ms | \(f(pongP50Ms)) / \(f(pongP99Ms)) |
        | command fan-out p50 / p99 ms | \(f(fanOutP50Ms)) / \(f(fanOutP99Ms)) |
        | pongs / pings | \(pongsReceived) / \(pingsSent) |
        | pings per member per s | \(f(pingsPerMemberPerSecond)) |
        | seconds waited for the clocks to settle | \(f(settleSeconds, 1)) |
        | members backing off / drift fitted (window end) | \(membersBackingOff) / \(membersDriftFitted) |
        | fan-outs received / due (\(commandsSent) commands) | \(fanOutsReceived) / \(fanOutsExpected) |
        | server messages in / out | \(serverMessagesIn) / \(serverMessagesOut) |
        | server cores | \(f(serverCores, 3)) |
        | server CPU per member µs/s | \(f(serverCPUPerMemberUs, 1)) |
        | server CPU per message µs | \(f(serverCPUPerMessageUs, 1)) |
        | members per core | \(f(membersPerCore, 0)) |
        | server RSS MiB, per member KiB | \(f(serverRSSMiB, 1)), \(f(serverRSSPerMemberKiB, 1)) |
        | client cores | \(f(clientCores, 3)) |
        | disconnects | \(disconnects) |
        | connections retried while joining | \(connectRetries) |
        """
    }
}
