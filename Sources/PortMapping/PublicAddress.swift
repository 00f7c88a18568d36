import TandemBase

/// `--public-address HOST[:PORT]`: where guests on the internet dial when the user forwarded a port
/// by hand (or runs a relay of their own): no mapping is asked for. Without a port, the serving port.
public struct PublicAddress: Sendable, Equatable, CustomStringConvertible {
    /// A name or an address literal (IPv6 without brackets).
    public var host: String
    /// Nil: the same port the party is served on.
    public var port: Int?

    public init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`.
    /// - Throws: a sentence naming what is wrong (an empty host, a port outside 1–65535, a bare IPv6
    ///   address with a port, spaces).
    public init(parsing text: String) throws(PublicAddressError) {
        guard !text.isEmpty, !text.contains(where: \.isWhitespace), !text.contains("/") else {
            throw PublicAddressError("\"\(text)\" is not HOST or HOST:PORT")
        }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard !host.isEmpty, rest.isEmpty || rest.hasPrefix(":") else { throw PublicAddressError("\"\(text)\" is not [IPv6] or [IPv6]:PORT") }
            self.init(host: host, port: rest.isEmpty ? nil : try Self.port(rest.dropFirst(), in: text))
            return
        }
        let colons = text.count(where: { $0 == ":" })
        if colons == 0 {
            self.init(host: text, port: nil)
        } else if colons == 1, let colon = text.firstIndex(of: ":") {
            let host = String(text[..<colon])
            guard !host.isEmpty else { throw PublicAddressError("\"\(text)\" has no host before its port") }
            self.init(host: host, port: try Self.port(text[text.index(after: colon)...], in: text))
        } else {
            // A bare IPv6 address: with a port it would be ambiguous, so brackets are required for one.
            self.init(host: text, port: nil)
        }
    }

    private static func port(_ text: Substring, in whole: String) throws(PublicAddressError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw PublicAddressError("the port of \"\(whole)\" must be a number from 1 to 65535")
        }
        return port
    }

    /// The address guests dial, with the serving port when none was given.
    public func resolved(servingPort: Int) -> HostPort { HostPort(host: host, port: port ?? servingPort) }

    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(shown):\($0)" } ?? shown
    }
}

/// A `--public-address` that cannot be used, and why.
public struct PublicAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
