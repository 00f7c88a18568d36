import PlayerCore

/// What a window learns of its display's refreshes (a ``RefreshGrid``) from when its presents return.
///
/// SDL tells a display's rate only in whole hertz (a 59.94 Hz display reads 59 or 60) and no refresh
/// instants at all, but a present that waits for the refresh (vsync, with the drawing finished,
/// `glFinish`) returns just after one. So:
/// - once, when the window is first shown, a few presents back to back: where the refresh paces them
///   they return a refresh apart, and where nothing does (Xvfb, vsync off, a compositor that queues)
///   at once or unevenly. ``init(probe:nominalPeriod:)`` keeps a grid only for the first case;
/// - then every present that returns near a refresh of the grid keeps its phase and period on the
///   display's (``presented(returnedAt:)``); a run of presents that do not lets it go, and the
///   pictures are placed by the clock alone again, as without vsync.
struct RefreshLearner {
    /// Presents back to back when the window is first shown: 12 at 60 Hz take 0.2 s.
    static let probePresents = 12
    /// Back-to-back presents count as paced when their intervals are within this share of the
    /// display's period; three in four must be (the first may return at once, the queue being empty).
    static let probeTolerance = 0.15
    /// A present returning within this of a refresh of the grid returned on it (a present that waited
    /// for the refresh returns a fraction of a millisecond after it, well inside this).
    static let beatTolerance = 0.0015
    /// How far one present on the beat moves the grid's phase, and its period (per refresh since the
    /// last such present): small, so a present that only happened to return near a refresh moves it little.
    static let phaseGain = 0.2
    static let periodGain = 0.05
    /// This many presents in a row off the beat: the presents no longer wait for the refresh.
    static let lostAfter = 30

    private(set) var grid: RefreshGrid?
    private var offBeat = 0

    /// A grid from `returns`, the return times of back-to-back presents, when the refresh paced them.
    /// `nominalPeriod`: 1 / the display's rate as SDL gives it.
    init(probe returns: [Double], nominalPeriod: Double) {
        guard nominalPeriod > 0, returns.count >= 4 else { return }
        let intervals = zip(returns.dropFirst(), returns).map { $0 - $1 }
        let paced = intervals.filter { abs($0 - nominalPeriod) <= Self.probeTolerance * nominalPeriod }
        guard paced.count * 4 >= intervals.count * 3 else { return }
        let period = paced.reduce(0, +) / Double(paced.count)
        grid = RefreshGrid(period: period, anchor: returns[returns.count - 1])
    }

    /// A present returned at `time`: on the beat, the grid follows it.
    mutating func presented(returnedAt time: Double) {
        guard var grid else { return }
        let refreshes = ((time - grid.anchor) / grid.period).rounded()
        let expected = grid.anchor + refreshes * grid.period
        let residual = time - expected
        guard abs(residual) <= Self.beatTolerance else {
            offBeat += 1
            if offBeat >= Self.lostAfter { self.grid = nil }
            return
        }
        offBeat = 0
        if refreshes >= 1 {
            let step = Self.periodGain * residual / refreshes
            grid.period += min(max(step, -grid.period * 0.001), grid.period * 0.001)
        }
        grid.anchor = expected + Self.phaseGain * residual
        self.grid = grid
    }
}
