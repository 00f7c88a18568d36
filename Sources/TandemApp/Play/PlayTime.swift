
/// A media position as mpv's `--start`/`--end` take it: `[+|-][[hh:]mm:]ss[.ms]` or `N%`.
///
/// `1:30` is 90 s; `-10` is 10 s before the end; `50%` is half the duration. Minutes and seconds
/// after the leading part must be under 60 (`1:90` is refused, as mpv refuses it).
package enum PlayTime: Equatable, Sendable, CustomStringConvertible {
    /// Seconds from the start of the media.
    case absolute(Double)
    /// Seconds before the end of the media.
    case fromEnd(Double)
    /// A fraction of the duration, 0…100 percent.
    case percent(Double)

    /// Parses one of mpv's time forms; nil when it is none of them.
    package init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("%") {
            guard let value = Double(text.dropLast()), value.isFinite, (0...100).contains(value) else { return nil }
            self = .percent(value)
            return
        }
        var body = Substring(text)
        var negative = false
        if let sign = body.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        guard let seconds = Self.clockSeconds(body) else { return nil }
        self = negative ? .fromEnd(seconds) : .absolute(seconds)
    }

    /// `[[hh:]mm:]ss[.ms]` in seconds: digits only (no signs, exponents or `inf` inside).
    private static func clockSeconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (last && $0 == ".")) }),
                  part.filter({ $0 == "." }).count <= 1, part != ".", let value = Double(part) else { return nil }
            // Each part after the first counts at most 59.999… (mpv refuses 1:90).
            if i > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// The position in seconds for media of `duration` seconds; nil when it needs an unknown duration.
    /// Positions past either end are clamped to it.
    package func seconds(duration: Double?) -> Double? {
        switch self {
        case .absolute(let seconds):
            return duration.map { min(seconds, $0) } ?? seconds
        case .fromEnd(let seconds):
            return duration.map { max(0, $0 - seconds) }
        case .percent(let value):
            return duration.map { $0 * value / 100 }
        }
    }

    package var description: String {
        switch self {
        case .absolute(let s): return "\(s)"
        case .fromEnd(let s): return "-\(s)"
        case .percent(let p): return "\(p)%"
        }
    }
}

