import Foundation

/// What went wrong, read from the error yt-dlp printed on its standard error when it exited with a
/// failure: its last `ERROR:` line, sorted into the cases a person acts on differently.
public enum YtdlDiagnosis: Sendable, Equatable {
    /// No extractor finds a video there (yt-dlp's "Unsupported URL"), or the link is not a URL.
    case unsupported
    /// The site answered the page with an HTTP error status.
    case httpStatus(Int, String)
    /// Nothing listens at the host's port.
    case connectionRefused
    /// The host name does not resolve.
    case unknownHost
    /// The host or the network is unreachable.
    case unreachable
    /// The host accepted the connection (or not) and did not answer in time.
    case noAnswer
    /// Anything else: yt-dlp's own words (the extractor's "Private video", "Sign in to confirm your age"…),
    /// cleaned of its prefixes and its request to report bugs.
    case other(String)

    /// Reads yt-dlp's standard error (its last `ERROR:` line, else its last line).
    public init(standardError text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let error = lines.last { $0.hasPrefix("ERROR:") } ?? lines.last { !$0.hasPrefix("WARNING:") } ?? ""
        let lower = error.lowercased()
        if lower.contains("unsupported url") || lower.contains("is not a valid url") {
            self = .unsupported
        } else if let status = Self.httpStatus(in: error) {
            self = .httpStatus(status.code, status.reason)
        } else if lower.contains("connection refused") {
            self = .connectionRefused
        } else if lower.contains("name or service not known") || lower.contains("temporary failure in name resolution")
                    || lower.contains("no address associated") || lower.contains("nodename nor servname") {
            self = .unknownHost
        } else if lower.contains("network is unreachable") || lower.contains("no route to host") {
            self = .unreachable
        } else if lower.contains("timed out") {
            self = .noAnswer
        } else {
            self = .other(Self.clean(error))
        }
    }

    /// `HTTP Error 404: Not Found` → (404, "Not Found").
    static func httpStatus(in line: String) -> (code: Int, reason: String)? {
        guard let match = line.firstMatch(of: /HTTP Error ([0-9]{3}): ([^(]*)/), let code = Int(match.1) else { return nil }
        return (code, match.2.trimmingCharacters(in: .whitespaces))
    }

    /// `ERROR: [youtube] abc: Private video. Sign in…; please report this issue on …` → `Private video. Sign in…`.
    static func clean(_ line: String) -> String {
        var text = Substring(line)
        if text.hasPrefix("ERROR:") { text = text.dropFirst("ERROR:".count) }
        text = text.drop { $0 == " " }
        if let prefix = text.firstMatch(of: /^\[[^\]]+\] (?:[^ :]+: )?/) { text = text[prefix.range.upperBound...] }
        if let report = text.range(of: "; please report this issue") { text = text[..<report.lowerBound] }
        let cleaned = text.trimmingCharacters(in: .whitespaces)
        return cleaned.isEmpty ? "yt-dlp failed without saying why" : cleaned
    }
}
