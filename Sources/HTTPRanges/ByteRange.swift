/// A `Range: bytes=…` request header, for one range (what players and libavformat send).
///
/// RFC 9110 §14: `bytes=FIRST-LAST`, `bytes=FIRST-` or `bytes=-SUFFIX`. Several ranges, other units
/// and malformed values are not served partially: ``resolve(_:size:)`` says what to answer.
public enum ByteRange: Equatable, Sendable {
    case from(Int64, through: Int64?)
    case suffix(Int64)

    /// Longest header value looked at; a longer one is malformed (no legitimate single range is).
    public static let maxHeaderLength = 100

    /// What to answer for a request with `header` (nil: no Range) on a resource of `size` bytes.
    public enum Answer: Equatable, Sendable {
        /// 200 with the whole body.
        case whole
        /// 206 with bytes `first...last`.
        case partial(first: Int64, last: Int64)
        /// 416 with `Content-Range: bytes */size`.
        case unsatisfiable
    }

    public static func parse(_ header: String) -> ByteRange? {
        guard header.utf8.count <= maxHeaderLength else { return nil }
        let value = header.trimmingSpaces
        guard value.hasPrefix("bytes=") else { return nil }
        let spec = value.dropFirst("bytes=".count).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingSpaces, last = spec[spec.index(after: dash)...].trimmingSpaces
        if first.isEmpty {
            guard let suffix = number(last), suffix > 0 else { return nil }
            return .suffix(suffix)
        }
        guard let start = number(first) else { return nil }
        if last.isEmpty { return .from(start, through: nil) }
        guard let end = number(last), end >= start else { return nil }
        return .from(start, through: end)
    }

    /// The answer for `header` on `size` bytes: a malformed or multi-range header is refused as
    /// unsatisfiable rather than answered with the whole file (a garbage request must not cost a
    /// full upload).
    public static func resolve(_ header: String?, size: Int64) -> Answer {
        guard let header else { return .whole }
        guard let range = parse(header) else { return .unsatisfiable }
        switch range {
        case .from(let start, let end):
            guard start < size else { return .unsatisfiable }
            return .partial(first: start, last: min(end ?? (size - 1), size - 1))
        case .suffix(let count):
            guard size > 0 else { return .unsatisfiable }
            return .partial(first: max(0, size - count), last: size - 1)
        }
    }

    /// A plain decimal of at most 18 digits (no sign, no overflow).
    private static func number(_ text: Substring) -> Int64? {
        guard (1...18).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        guard let start = firstIndex(where: { $0 != " " && $0 != "\t" }) else { return self[endIndex...] }
        let end = lastIndex(where: { $0 != " " && $0 != "\t" })!
        return self[start...end]
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring { self[...].trimmingSpaces }
}
