import PartyKit
import MediaTime
import Foundation

/// An SVG line chart of skew over time, one line per member, for a person to look at.
public enum SkewPlot {
    public static func svg(_ samples: [SkewSample], names: [String], title: String) -> String {
        let width = 960.0, height = 420.0, left = 70.0, right = 150.0, top = 40.0, bottom = 50.0
        let t0 = samples.map(\.time).min() ?? 0, t1 = max(samples.map(\.time).max() ?? 1, t0 + 1)
        let peak = max(samples.map { abs($0.skew) * 1000 }.max() ?? 1, 1)
        let limit = [1.0, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000].first { $0 >= peak } ?? peak
        func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * (width - left - right) }
        func y(_ ms: Double) -> Double { top + (1 - (min(max(ms, -limit), limit) + limit) / (2 * limit)) * (height - top - bottom) }
        let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(left)" y="22" font-size="15">\(escape(title))</text>
        <line x1="\(left)" y1="\(y(0))" x2="\(width - right)" y2="\(y(0))" stroke="#999"/>
        <rect x="\(left)" y="\(top)" width="\(width - left - right)" height="\(height - top - bottom)" fill="none" stroke="#333"/>

        """
        for ms in [-limit, -limit / 2, 0, limit / 2, limit] {
            out += "<text x=\"\(left - 6)\" y=\"\(y(ms) + 4)\" text-anchor=\"end\">\(format(ms)) ms</text>\n"
        }
        for i in 0...5 {
            let t = t0 + (t1 - t0) * Double(i) / 5
            out += "<text x=\"\(x(t))\" y=\"\(height - bottom + 18)\" text-anchor=\"middle\">\(format(t)) s</text>\n"
        }
        out += "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 10)\" text-anchor=\"middle\">time (s); skew = member position − reference</text>\n"
        let byMember = Dictionary(grouping: samples, by: \.member)
        for (index, member) in byMember.keys.sorted().enumerated() {
            let color = colors[index % colors.count]
            // Thin the polyline to at most ~2000 points per member.
            let points = byMember[member]!
            let step = max(1, points.count / 2000)
            let path = stride(from: 0, to: points.count, by: step).map { i in
                String(format: "%.1f,%.1f", x(points[i].time), y(points[i].skew * 1000))
            }.joined(separator: " ")
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1\" points=\"\(path)\"/>\n"
            let name = member < names.count ? names[member] : "member \(member)"
            out += "<text x=\"\(width - right + 10)\" y=\"\(top + 16 * Double(index + 1))\" fill=\"\(color)\">\(escape(name))</text>\n"
        }
        return out + "</svg>\n"
    }

    private static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v)
    }

    private static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
