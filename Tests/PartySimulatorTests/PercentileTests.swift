import Testing
import PartySimulator

/// Nearest rank: the p-th percentile of n sorted values is `sorted[ceil(p·n) − 1]`.
@Suite struct PercentileTests {
    /// The worked example of nearest rank: 15, 20, 35, 40, 50.
    @Test func textbookExample() {
        let values: [Double] = [15, 20, 35, 40, 50]
        #expect(Percentile.nearestRank(values, 0.05) == 15)
        #expect(Percentile.nearestRank(values, 0.30) == 20)
        #expect(Percentile.nearestRank(values, 0.40) == 20)  // rank exactly 2: no rounding up
        #expect(Percentile.nearestRank(values, 0.50) == 35)
        #expect(Percentile.nearestRank(values, 1) == 50)
    }

    @Test func oneToTen() {
        let values = (1...10).map(Double.init)
        #expect(Percentile.nearestRank(values, 0) == 1)
        #expect(Percentile.nearestRank(values, 0.1) == 1)
        #expect(Percentile.nearestRank(values, 0.11) == 2)
        #expect(Percentile.nearestRank(values, 0.5) == 5)
        #expect(Percentile.nearestRank(values, 0.9) == 9)
        #expect(Percentile.nearestRank(values, 0.95) == 10)
        #expect(Percentile.nearestRank(values, 0.99) == 10)
    }

    @Test func wholeRanksAreNotPushedUpByRoundingErrors() {
        // 0.07 × 100 is 7.000000000000001 in binary floating point; the rank is still 7.
        let values = (1...100).map(Double.init)
        #expect(Percentile.nearestRank(values, 0.07) == 7)
        #expect(Percentile.nearestRank(values, 0.29) == 29)
        #expect(Percentile.nearestRank(values, 0.99) == 99)
    }

    @Test func medianIsTheLowerMiddleForAnEvenCount() {
        #expect(Percentile.median(of: [2, 1]) == 1)
        #expect(Percentile.median(of: [4, 1, 3, 2]) == 2)
        #expect(Percentile.median(of: [3, 1, 2]) == 2)
        #expect(Percentile.median(of: [7]) == 7)
        #expect(Percentile.nearestRank(of: [30, 10, 20], 0.99) == 30)
    }

    @Test func edges() {
        #expect(Percentile.nearestRank([7], 0.99) == 7)
        #expect(Percentile.nearestRank([7], 0) == 7)
        #expect(Percentile.nearestRank([], 0.5).isNaN)
        #expect(Percentile.median(of: []).isNaN)
        // Fractions outside 0...1 are clamped.
        #expect(Percentile.nearestRank([1, 2, 3], 2) == 3)
        #expect(Percentile.nearestRank([1, 2, 3], -1) == 1)
    }
}
