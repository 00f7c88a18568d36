import Testing
@testable import TandemApp
@testable import TandemBench

/// `tandem bench load`'s figures: nearest-rank percentiles, the server's CPU and memory shared out
/// per member and per message, and what /proc says.
@Suite struct LoadStatisticsTests {
    static func statistics() -> LoadStatistics {
        var a = LoadStatistics()
        // 100 round trips of 1…100 ms, in two members' shares.
        a.pongRoundTrips = (1...60).map { Double($0) / 1000 }
        a.pingsSent = 60
        a.pongsReceived = 60
        a.fanOuts = [0.002, 0.004]
        a.fanOutsReceived = 2
        a.messagesSent = 300
        a.messagesReceived = 200
        a.backingOff = 1
        a.driftFitted = 1
        var b = LoadStatistics()
        b.pongRoundTrips = (61...100).map { Double($0) / 1000 }.reversed()
        b.pingsSent = 41
        b.pongsReceived = 40
        b.fanOuts = [0.003]
        b.fanOutsReceived = 1
        b.messagesSent = 300
        b.messagesReceived = 200
        b.driftFitted = 1
        a.merge(b)
        return a
    }

    @Test func percentilesAndSharesPerMemberAndMessage() {
        let s = LoadSummary.make(
            statistics: Self.statistics(), members: 10, parties: 2, tls: true, seconds: 10,
            commandsSent: 1, fanOutsExpected: 3,
            server: (LoadProcessUsage(cpuSeconds: 5, residentBytes: 0), LoadProcessUsage(cpuSeconds: 7, residentBytes: 30 << 20)),
            serverIdleRSS: 20 << 20,
            client: (LoadProcessUsage(cpuSeconds: 1, residentBytes: 0), LoadProcessUsage(cpuSeconds: 2, residentBytes: 0)))
        #expect(abs(s.pongP50Ms - 50) < 1e-9)  // nearest rank: the 50th of 100
        #expect(abs(s.pongP99Ms - 99) < 1e-9)
        #expect(abs(s.fanOutP50Ms - 3) < 1e-9)  // the 2nd of 3
        #expect(abs(s.fanOutP99Ms - 4) < 1e-9)
        #expect(s.pingsSent == 101 && s.pongsReceived == 100)
        // 101 pings from 10 members over 10 s; one of the two members had backed off, both had a fitted drift.
        #expect(abs(s.pingsPerMemberPerSecond - 1.01) < 1e-12)
        #expect(s.membersBackingOff == 1 && s.membersDriftFitted == 2)
        #expect(JSONLineWriter.line(s).contains("\"membersBackingOff\":1"))
        // 2 CPU seconds over 10 s: 0.2 cores; 20 ms a second per member; 1000 messages crossed the server.
        #expect(abs(s.serverCores - 0.2) < 1e-12)
        #expect(abs(s.serverCPUPerMemberUs - 20_000) < 1e-6)
        #expect(abs(s.serverCPUPerMessageUs - 2000) < 1e-6)
        #expect(abs(s.membersPerCore - 50) < 1e-9)
        #expect(abs(s.serverRSSPerMemberKiB - 1024) < 1e-9)
        #expect(abs(s.clientCores - 0.1) < 1e-12)
        #expect(!s.isComplete, "a pong is missing")
    }

    @Test func aServerNotStartedHereHasNoMemoryPerMember() {
        let usage = LoadProcessUsage(cpuSeconds: 1, residentBytes: 1 << 20)
        let s = LoadSummary.make(statistics: LoadStatistics(), members: 1, parties: 1, tls: false, seconds: 1,
                                 commandsSent: 0, fanOutsExpected: 0, server: (usage, usage), serverIdleRSS: nil,
                                 client: (usage, usage))
        #expect(s.serverRSSPerMemberKiB.isNaN)
        #expect(s.pongP50Ms.isNaN)
        #expect(JSONLineWriter.line(s).contains("\"pongP50Ms\":null"))
        #expect(s.isComplete)
    }

    @Test func procStatFieldsAreCountedFromTheLastParenthesis() {
        let stat = "4242 (tandem (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 12345 0 0"
        #expect(LoadProcessUsage.cpuSeconds(stat: stat, ticksPerSecond: 100) == 3)
        #expect(LoadProcessUsage.cpuSeconds(stat: "garbage", ticksPerSecond: 100) == nil)
        #expect(LoadProcessUsage.residentBytes(status: "Name:\ttandem\nVmRSS:\t    2048 kB\nThreads:\t4\n") == 2048 * 1024)
        #expect(LoadProcessUsage.residentBytes(status: "Name:\ttandem\n") == nil)
    }
}
