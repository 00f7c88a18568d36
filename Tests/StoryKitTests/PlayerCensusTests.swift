import Testing
@testable import StoryKit

@Suite struct PlayerCensusTests {
    @Test func countsPlayersFromOpeningToClosedAndKeepsThePeak() {
        var census = PlayerCensus()
        census.opening()
        census.opening()
        #expect(census.livePlayers == 2 && census.peakLivePlayers == 2)
        census.closed(threadsLeft: 0)
        census.opening()
        #expect(census.livePlayers == 2 && census.peakLivePlayers == 2, "one out, one in: still two at most")
        census.closed(threadsLeft: 0)
        census.closed(threadsLeft: 0)
        #expect(census.livePlayers == 0 && census.peakLivePlayers == 2)
        #expect(census.leakedThreads == 0 && census.threads(of: []) == 0)
    }

    @Test func aPlayerThatFailedToOpenLeavesNothingBehind() {
        var census = PlayerCensus()
        census.opening()
        census.failedToOpen()
        #expect(census.livePlayers == 0 && census.peakLivePlayers == 1 && census.leakedThreads == 0)
    }

    @Test func threadsAClosedPlayerLeftRunningStayCounted() {
        var census = PlayerCensus()
        census.opening()
        census.closed(threadsLeft: 2)
        census.opening()
        census.closed(threadsLeft: 1)
        #expect(census.livePlayers == 0 && census.leakedThreads == 3)
        #expect(census.threads(of: []) == 3, "leaked threads count as alive")
    }
}
