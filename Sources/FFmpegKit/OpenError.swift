import CFFmpeg
import TandemBase
import Glibc

/// Why a file or URL could not be opened: names it and the reason in one line.
public struct OpenError: Error, CustomStringConvertible, Sendable, Equatable {
    public let url: String
    public let reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { "\(url): \(reason)" }

    /// The server refused the URL with a 403 or another 4xx status than 400, 401 and 404 (a 410
    /// among them): what a site answers for a media link that has expired.
    public var isHTTPRefusal: Bool { Self.isHTTPRefusal(reason) }

    /// Whether a reason (or a line ending with one, as a party member's problem) is such a refusal.
    public static func isHTTPRefusal(_ reason: String) -> Bool {
        reason.hasSuffix(forbiddenReason) || reason.hasSuffix(otherClientErrorReason)
    }

    static let forbiddenReason = "HTTP 403 forbidden"
    static let otherClientErrorReason = "HTTP 4xx: the server refused the request"

    /// The reason given for what libavformat reads but finds no media in (a web page, a text file).
    static let notMediaReason = "not a media file FFmpeg can read (invalid data while reading the header)"

    /// The input was read and is not media (a web page, a text file), as opposed to one that could
    /// not be read at all (missing, refused, unreachable).
    public var isNotMedia: Bool { reason == Self.notMediaReason }

    /// The reason given for an http(s) URL whose server sends the whole body whatever the `Range`.
    public static let noByteRangesReason = "the server does not support byte ranges (seeking and party sync need them)"

    /// An open failure of libavformat (`avformat_open_input`'s code) in words for people.
    static func classify(openCode: Int32, url: String) -> OpenError {
        if let reason = networkReason(openCode, url: url) { return OpenError(url: url, reason: reason) }
        if openCode == tandem_averror(ENOENT) { return OpenError(url: url, reason: "no such file") }
        if openCode == tandem_averror(EACCES) { return OpenError(url: url, reason: "permission denied") }
        if openCode == tandem_averror(EISDIR) { return OpenError(url: url, reason: "is a directory") }
        if openCode == FFmpegError.invalidData {
            return OpenError(url: url, reason: notMediaReason)
        }
        return OpenError(url: url, reason: FFmpegError.describe(openCode))
    }

    /// A failure while reading stream information (after the open) in words for people.
    static func classify(streamInfoCode code: Int32, url: String) -> OpenError {
        OpenError(url: url, reason: "cannot read stream information: "
                  + (networkReason(code, url: url) ?? FFmpegError.describe(code)))
    }

    /// Words for libavformat's network failures: the server's HTTP status, a refused, unreachable
    /// or silent host, a name that does not resolve. Nil for other codes and for local files.
    static func networkReason(_ code: Int32, url: String) -> String? {
        guard let address = HostPort(url: url) else { return nil }
        switch code {
        case tandem_averror_http_bad_request(): return "HTTP 400 bad request"
        case tandem_averror_http_unauthorized(): return "HTTP 401 unauthorized (the server wants credentials)"
        case tandem_averror_http_forbidden(): return forbiddenReason
        case tandem_averror_http_not_found(): return "HTTP 404 not found"
        case tandem_averror_http_other_4xx(): return otherClientErrorReason
        case tandem_averror_http_server_error(): return "HTTP 5xx server error"
        case tandem_averror(ECONNREFUSED): return "connection refused: nothing listens at \(address)"
        case tandem_averror(EHOSTUNREACH): return "host \(address.host) is unreachable"
        case tandem_averror(ENETUNREACH): return "network unreachable (for \(address.host))"
        case tandem_averror(ECONNRESET): return "connection reset by \(address)"
        case tandem_averror(ETIMEDOUT): return "timed out: no answer from \(address)"
        case tandem_averror(EIO) where !address.resolves:
            // libavformat's tcp protocol answers a failed name lookup with a bare EIO.
            return "cannot resolve host \(address.host)"
        default: return nil
        }
    }
}
