import Glibc

/// The host and port of a network URL (`scheme://[user@]host[:port]/…`), for error messages.
struct NetworkAddress: Equatable {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Nil for a URL that is not http(s) (local paths, `file:`, `pipe:`…).
    init?(url: String) {
        guard let scheme = url.range(of: "://").map({ url[..<$0.lowerBound].lowercased() }),
              scheme == "http" || scheme == "https" else { return nil }
        var authority = url[url.range(of: "://")!.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let defaultPort = scheme == "https" ? 443 : 80
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            // An IPv6 literal: [::1]:8080.
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            port = rest.hasPrefix(":") ? Int(rest.dropFirst()) ?? defaultPort : defaultPort
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = Int(authority[authority.index(after: colon)...]) ?? defaultPort
        } else {
            host = String(authority)
            port = defaultPort
        }
    }

    var hostPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether the system resolver knows the host (asked only after a failure, to name it).
    var resolves: Bool {
        var result: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, nil, &result)
        if let result { freeaddrinfo(result) }
        return code == 0
    }
}
