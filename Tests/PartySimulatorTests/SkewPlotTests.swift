import Testing
@testable import PartySimulator
import PartyKit

@Suite struct SkewPlotTests {
    private func samples() -> [SkewSample] {
        (0..<300).flatMap { i in
            (0..<3).map { m in SkewSample(time: Double(i) * 0.1, member: m, skew: Double(m - 1) * 0.003, correction: 0) }
        }
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func oneLineAndOneLabelPerMember() {
        let svg = SkewPlot.svg(samples(), names: ["host", "p1", "p2"], title: "Tandem simulate")
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(count("<polyline", in: svg) == 3)
        for name in [">host<", ">p1<", ">p2<", ">Tandem simulate<"] { #expect(svg.contains(name)) }
        // Skews up to 3 ms: the axis is ±5 ms.
        #expect(svg.contains(">5 ms<") && svg.contains(">-5 ms<"))
    }

    @Test func titleAndNamesAreEscaped() {
        let svg = SkewPlot.svg(samples(), names: ["<b>&"], title: "a < b & c")
        #expect(svg.contains("a &lt; b &amp; c"))
        #expect(!svg.contains("a < b"))
        #expect(svg.contains("&lt;b>&amp;"))
        // Members without a name get one.
        #expect(svg.contains(">member 1<") && svg.contains(">member 2<"))
    }

    @Test func longRunsAreThinned() throws {
        let many = (0..<10_000).map { SkewSample(time: Double($0) * 0.01, member: 0, skew: 0.001, correction: 0) }
        let svg = SkewPlot.svg(many, names: ["host"], title: "t")
        let line = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<polyline") })
        let points = line.split(separator: " ").filter { $0.contains(",") }.count
        #expect(points <= 2500 && points >= 1000)
    }

    @Test func emptyPlotIsStillAnImage() {
        let svg = SkewPlot.svg([], names: [], title: "nothing")
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        #expect(count("<polyline", in: svg) == 0)
        #expect(!svg.contains("nan"))
    }
}
