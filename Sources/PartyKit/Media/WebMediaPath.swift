/// What the browser page asks of an item the browser cannot open as it is: the plan and segment
/// list, the fragmented MP4's init segment, one media segment, or a subtitle track as WebVTT.
public enum WebMediaRequest: Sendable, Equatable, Hashable {
    /// `index.json`: the plan, MIME type, timestamp offset, segments and subtitle tracks.
    case index
    /// `init.mp4`: the fragmented MP4's header (ftyp + moov), the same for every segment.
    case initSegment
    /// `K.m4s`: media segment K (moof + mdat).
    case segment(Int)
    /// `subs/T.vtt`: text subtitle track T (0-based among the item's text subtitle tracks) as WebVTT.
    case subtitles(Int)

    /// The answer's `Content-Type`.
    public var contentType: String {
        switch self {
        case .index: "application/json"
        case .initSegment, .segment: "video/mp4"
        case .subtitles: "text/vtt; charset=utf-8"
        }
    }
}

/// Where a party serves what the browser page plays of item N when the browser cannot open the
/// file as it is: under the item's media path, so the page's media cookie (set for
/// `/party/ID/media`) goes with every request.
///
///     /party/ID/media/N/web/index.json   /party/ID/media/N/web/init.mp4
///     /party/ID/media/N/web/K.m4s        /party/ID/media/N/web/subs/T.vtt
public enum WebMediaPath {
    /// Segment and track numbers are plain decimals of at most this many digits: a day of 2 s
    /// segments is 43 200, so six digits leave room while keeping every number far from overflow.
    public static let maxDigits = 6

    /// The path of `request` for item `index` of `party`.
    public static func path(party: String, item index: Int, _ request: WebMediaRequest) -> String {
        MediaPath.path(party: party, item: index) + "/web/" + name(of: request)
    }

    /// What `request` is called under `web/`: `index.json`, `init.mp4`, `K.m4s` or `subs/T.vtt` (the
    /// name the host's relay connection is asked for, ``RelayWebFetch``).
    public static func name(of request: WebMediaRequest) -> String {
        switch request {
        case .index: "index.json"
        case .initSegment: "init.mp4"
        case .segment(let k): "\(k).m4s"
        case .subtitles(let t): "subs/\(t).vtt"
        }
    }

    /// The request a name under `web/` stands for (``name(of:)``), nil for any other name.
    public static func request(named name: String) -> WebMediaRequest? {
        parse("/party/p/media/0/web/" + name)?.request
    }

    /// The party, item and request of a request target, or nil when it is not exactly one of these
    /// paths: no query, no dot segments, no encoded characters, plain decimals without signs or
    /// leading zeros.
    public static func parse(_ target: String) -> (party: String, item: Int, request: WebMediaRequest)? {
        guard target.utf8.count <= 512, target.hasPrefix("/") else { return nil }
        let parts = target.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 6 || parts.count == 7, parts[4] == "web" else { return nil }
        guard let (party, item) = MediaPath.parse("/" + parts[0...3].joined(separator: "/")) else { return nil }
        let request: WebMediaRequest
        if parts.count == 7 {
            guard parts[5] == "subs", let track = number(parts[6], suffix: ".vtt") else { return nil }
            request = .subtitles(track)
        } else if parts[5] == "index.json" {
            request = .index
        } else if parts[5] == "init.mp4" {
            request = .initSegment
        } else if let k = number(parts[5], suffix: ".m4s") {
            request = .segment(k)
        } else {
            return nil
        }
        return (party, item, request)
    }

    /// The plain decimal before `suffix` in `name`.
    private static func number(_ name: Substring, suffix: String) -> Int? {
        guard name.hasSuffix(suffix) else { return nil }
        let digits = name.dropLast(suffix.count)
        guard (1...maxDigits).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              digits == "0" || !digits.hasPrefix("0") else { return nil }
        return Int(digits)
    }
}
