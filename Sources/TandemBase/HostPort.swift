/// A host and a port: `HOST:PORT`, an IPv6 host written in brackets (`[::1]:7777`). The one address
/// type of Tandem: listen and server options, a cluster's node addresses, the hosts of network URLs.
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    /// A name or an address literal (an IPv6 literal without its brackets).
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT`; nil when the text is not that or the port is not within
    /// `ports` (0 is a listen address's "any free port").
    public init?(parsing text: some StringProtocol, ports: ClosedRange<Int> = 0...65535) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              ports.contains(port) else { return nil }
        var host = Substring(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { return nil }
        self.init(host: String(host), port: port)
    }

    /// The host and port of an `http://` or `https://` URL (`scheme://[user@]host[:port]/…`; the
    /// scheme's port when none is given); nil for any other URL or path.
    public init?(url: String) {
        let scheme: String
        if url.lowercased().hasPrefix("http://") { scheme = "http" } else if url.lowercased().hasPrefix("https://") { scheme = "https" } else { return nil }
        var authority = url.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let defaultPort = scheme == "https" ? 443 : 80
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let rest = authority[authority.index(after: close)...]
            self.init(host: String(authority[authority.index(after: authority.startIndex)..<close]),
                      port: rest.hasPrefix(":") ? Int(rest.dropFirst()) ?? defaultPort : defaultPort)
        } else if let colon = authority.lastIndex(of: ":") {
            self.init(host: String(authority[..<colon]), port: Int(authority[authority.index(after: colon)...]) ?? defaultPort)
        } else {
            self.init(host: String(authority), port: defaultPort)
        }
    }

    /// The host as it goes before `:PORT` in an address or a URL: an IPv6 literal in brackets.
    public var bracketedHost: String { host.contains(":") ? "[\(host)]" : host }

    /// `HOST:PORT`, an IPv6 host in brackets.
    public var description: String { "\(bracketedHost):\(port)" }
}
