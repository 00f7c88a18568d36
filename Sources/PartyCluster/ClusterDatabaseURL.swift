/// Where the cluster's directory lives: `tandem serve --cluster postgres://USER[:PASS]@HOST[:PORT]/DB`.
///
/// `postgresql://` is accepted too, user, password and database may be percent-encoded, an IPv6 host
/// goes in brackets, and `?sslmode=disable|prefer|require` chooses TLS (`prefer`, as libpq, when absent).
/// The password never appears in ``description`` nor in any ``ParseError``.
public struct ClusterDatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// Whether and how to use TLS to the database.
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    /// PostgreSQL's port when the URL names none.
    public static let defaultPort = 5432

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode

    /// `HOST:PORT` (IPv6 in brackets): how errors name the database, without credentials.
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The URL with the password masked.
    public var description: String {
        let userinfo = password == nil ? user : "\(user):***"
        return "postgres://\(userinfo)@\(endpoint)/\(database)"
    }

    public init(user: String, password: String? = nil, host: String, port: Int = Self.defaultPort,
                database: String, tls: TLSMode = .prefer) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.tls = tls
    }

    /// What is wrong with a `--cluster` URL. No case carries the password.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case scheme(String)
        case missingScheme
        case missingUser
        case missingHost
        case badPort(String)
        case missingDatabase
        case badDatabase(String)
        case badEncoding(part: String)
        case badOption(String)

        public var description: String {
            let form = "expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
            switch self {
            case .scheme(let s): return "cluster URL: the scheme must be postgres:// or postgresql://, not \"\(s)\" (\(form))"
            case .missingScheme: return "cluster URL: no postgres:// at the start (\(form))"
            case .missingUser: return "cluster URL: no user name before the @ (\(form))"
            case .missingHost: return "cluster URL: no host (\(form))"
            case .badPort(let p): return "cluster URL: the port \"\(p)\" is not a number from 1 to 65535"
            case .missingDatabase: return "cluster URL: no database name after the host (\(form))"
            case .badDatabase(let d): return "cluster URL: the database name \"\(d)\" may not contain a /"
            case .badEncoding(let part): return "cluster URL: the \(part) has a bad percent-encoding"
            case .badOption(let o): return "cluster URL: unknown option \"\(o)\" (only sslmode=disable, prefer or require)"
            }
        }
    }

    /// Parses `postgres://USER[:PASS]@HOST[:PORT]/DB[?sslmode=MODE]`.
    public init(parsing text: String) throws(ParseError) {
        var rest = Substring(text)
        // Nothing of the text is quoted before its userinfo is split off: it may hold the password.
        guard let schemeEnd = rest.firstRange(of: "://") else { throw .missingScheme }
        let scheme = rest[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            let plain = !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            throw plain ? .scheme(scheme) : .missingScheme
        }
        rest = rest[schemeEnd.upperBound...]

        var tls = TLSMode.prefer
        if let q = rest.firstIndex(of: "?") {
            for option in rest[rest.index(after: q)...].split(separator: "&") {
                let pair = option.split(separator: "=", maxSplits: 1)
                // Only the option's name is quoted: a value may be a credential (libpq takes password=).
                guard pair.count == 2, pair[0] == "sslmode", let mode = TLSMode(rawValue: String(pair[1])) else {
                    throw .badOption(pair[0] == "sslmode" ? String(option.prefix(40)) : String(pair[0].prefix(40)))
                }
                tls = mode
            }
            rest = rest[..<q]
        }
        // The userinfo ends at the last @ (a password may contain an unencoded @).
        guard let at = rest.lastIndex(of: "@") else { throw .missingUser }
        let userinfo = rest[..<at]
        rest = rest[rest.index(after: at)...]
        let userPart: Substring
        var password: String?
        if let colon = userinfo.firstIndex(of: ":") {
            userPart = userinfo[..<colon]
            // Decoded, never quoted in an error: a bad encoding is reported without the text.
            guard let decoded = Self.percentDecoded(userinfo[userinfo.index(after: colon)...]) else {
                throw .badEncoding(part: "password")
            }
            password = decoded
        } else {
            userPart = userinfo
        }
        guard let user = Self.percentDecoded(userPart) else { throw .badEncoding(part: "user name") }
        guard !user.isEmpty else { throw .missingUser }

        guard let slash = rest.firstIndex(of: "/") else { throw .missingDatabase }
        let hostPort = rest[..<slash]
        let databasePart = rest[rest.index(after: slash)...]
        guard let database = Self.percentDecoded(databasePart) else { throw .badEncoding(part: "database name") }
        guard !database.isEmpty else { throw .missingDatabase }
        guard !database.contains("/") else { throw .badDatabase(database) }

        var host: Substring
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw .missingHost }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badPort(String(after.prefix(16))) }
                portText = after.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            portText = hostPort[hostPort.index(after: colon)...]
        } else {
            host = hostPort
        }
        guard !host.isEmpty else { throw .missingHost }
        var port = Self.defaultPort
        if let portText {
            guard portText.allSatisfy(\.isASCII), let p = Int(portText), (1...65535).contains(p) else {
                throw .badPort(String(portText.prefix(16)))
            }
            port = p
        }
        self.init(user: user, password: password, host: String(host), port: port, database: database, tls: tls)
    }

    /// `%XX` escapes decoded as UTF-8; nil for a malformed escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(Self.hexValue), let low = utf8.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
