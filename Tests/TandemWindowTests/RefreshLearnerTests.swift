import PlayerCore
import Testing
@testable import TandemWindow

/// The display's refreshes learned from when presents return (the window's half of display sync).
@Suite struct RefreshLearnerTests {
    /// A 59.94 Hz display SDL calls 60 Hz.
    static let actual = 1 / 59.94
    static let nominal = 1.0 / 60

    /// Back-to-back presents that the refresh paces return a refresh apart (±0.1 ms): a grid, with the
    /// display's own period, not SDL's whole-hertz one.
    @Test func presentsPacedByTheRefreshGiveAGrid() throws {
        let jitter = [0.0001, -0.00005, 0.00008, 0, -0.0001, 0.00003, 0.00005, -0.00002, 0.0001, -0.00007, 0, 0.00002]
        let returns = jitter.enumerated().map { 100 + Double($0.offset) * Self.actual + $0.element }
        let learner = RefreshLearner(probe: returns, nominalPeriod: Self.nominal)
        let grid = try #require(learner.grid)
        #expect(abs(grid.period - Self.actual) < 0.00002)
        #expect(grid.anchor == returns.last)
    }

    /// Presents nothing paces (Xvfb, vsync off) return at once or unevenly: no grid.
    @Test func presentsNothingPacesGiveNone() {
        let atOnce = (0..<12).map { 100 + Double($0) * 0.0003 }
        #expect(RefreshLearner(probe: atOnce, nominalPeriod: Self.nominal).grid == nil)
        let uneven = [0, 0.004, 0.021, 0.024, 0.05, 0.052, 0.09, 0.1, 0.101, 0.13, 0.15, 0.151].map { 100 + $0 }
        #expect(RefreshLearner(probe: uneven, nominalPeriod: Self.nominal).grid == nil)
        #expect(RefreshLearner(probe: [], nominalPeriod: Self.nominal).grid == nil)
        #expect(RefreshLearner(probe: atOnce, nominalPeriod: 0).grid == nil)
    }

    /// Learned with SDL's 60 Hz, then fed presents on the display's real 59.94 Hz refreshes for a minute
    /// (a picture every two or three refreshes, as 24 fps on 60 Hz): the grid keeps to the display's
    /// refreshes, where a grid left at 60 Hz would be 60 ms off by then.
    @Test func theGridFollowsTheDisplaysRefreshes() throws {
        var learner = RefreshLearner(probe: (0..<12).map { 100 + Double($0) * Self.nominal }, nominalPeriod: Self.nominal)
        var refresh = 11
        for step in 0..<1440 {
            refresh += step % 2 == 0 ? 2 : 3
            learner.presented(returnedAt: 100 + 11 * Self.nominal + Double(refresh - 11) * Self.actual + 0.0002)
        }
        let grid = try #require(learner.grid)
        let last = 100 + 11 * Self.nominal + Double(refresh - 11) * Self.actual
        #expect(abs(grid.nearest(to: last + 0.3 * Self.actual) - last) < 0.0005)
        #expect(abs(grid.nearest(to: last + 10 * Self.actual) - (last + 10 * Self.actual)) < 0.0005)
        #expect(abs(grid.period - Self.actual) < 0.000002)
    }

    /// Presents that stop returning on the refreshes (a compositor that queues them): the grid goes.
    @Test func presentsOffTheBeatLetTheGridGo() {
        var learner = RefreshLearner(probe: (0..<12).map { 100 + Double($0) * Self.nominal }, nominalPeriod: Self.nominal)
        // Half a refresh off, every time.
        let offBeat = { (i: Int) in 100 + Double(11 + 2 * i) * Self.nominal + Self.nominal / 2 }
        for i in 1..<RefreshLearner.lostAfter { learner.presented(returnedAt: offBeat(i)) }
        #expect(learner.grid != nil)
        learner.presented(returnedAt: offBeat(RefreshLearner.lostAfter))
        #expect(learner.grid == nil)
    }
}
