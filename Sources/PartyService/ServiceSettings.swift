import Configuration
import Foundation
import Logging
import PartyCluster
import PartyServer

/// What `tandem serve` runs with, resolved from (highest first) its command-line options, `TANDEM_*`
/// environment variables, a JSON config file, and the defaults here.
///
/// Keys (JSON: nested objects or dotted names; environment: upper case with `_`, prefixed `TANDEM_`):
/// `listen`, `admin.listen`, `log.level`, `cache.dir`, `cache.size` (MB), `drain.seconds`, `cert`,
/// `cert.key`, `state.dir`, `insecure`, `syncplay` (the Syncplay gateway's `[HOST:]PORT`), `port.mapping`
/// (true or false), `public.address` (`HOST[:PORT]`), and for a cluster `cluster.url`, `cluster.node`, `cluster.address`,
/// `cluster.lease` (seconds). A value of the wrong type, or a key the file should not
/// have (a typo), is an error naming the key and where it came from, never a silent default.
public struct ServiceSettings: Sendable, Equatable {
    /// The party port (wss and https, or ws and http with `insecure`).
    public var listen = "0.0.0.0:7777"
    /// The admin port (`/healthz`, `/metrics`), nil: none. Meant for loopback or a private network.
    public var adminListen: String?
    public var logLevel = Logger.Level.info
    public var cacheDir: String?
    /// Cap of the relay's disk cache in MB (0: memory only).
    public var cacheSizeMB = Int(RelayDiskCache.defaultCapacityBytes >> 20)
    /// How long a SIGTERM waits for members to leave after telling them the server is restarting.
    public var drainSeconds = 5.0
    public var cert: String?
    public var certKey: String?
    public var stateDir: String?
    public var insecure = false
    /// Ask the home router to forward a port to the party port (PCP, NAT-PMP, UPnP) when listening
    /// on a LAN address.
    public var portMapping = true
    /// Where hosts on the internet dial when a port is forwarded by hand (`HOST[:PORT]`): no mapping.
    public var publicAddress: String?
    /// Where the Syncplay gateway listens, `[HOST:]PORT` as `--syncplay` takes it (a bare port: the
    /// listen address's host); nil: no gateway. A file may give the port as a number.
    public var syncplay: String?
    /// The cluster's directory (`postgres://USER[:PASS]@HOST[:PORT]/DB`); nil: a single server.
    public var clusterURL: String?
    /// This node's name in the directory (default: the host name and the party port).
    public var clusterNode: String?
    /// Where other nodes send members to this one, `HOST:PORT` (default: the listen address, or the
    /// host name with the listen port when it listens on every address).
    public var clusterAddress: String?
    /// A party lease's length in seconds: how long a dead node's parties wait before another node may
    /// take them over (the recovery time), against one renewal per party every third of it.
    public var clusterLeaseSeconds = Double(ClusterConfiguration.defaultLeaseLength.components.seconds)

    public init() {}

    /// Every key a config file may hold.
    public static let keys = ["listen", "admin.listen", "log.level", "cache.dir", "cache.size", "drain.seconds",
                              "cert", "cert.key", "state.dir", "insecure", "syncplay", "port.mapping", "public.address",
                              "cluster.url", "cluster.node", "cluster.address", "cluster.lease"]
    /// The environment variables' prefix.
    public static let environmentPrefix = "tandem"

    /// Resolves the settings. `options` holds the command-line values given (by key), which win.
    public static func resolve(options: [String: String], environment: [String: String],
                               configFile: String?) async throws(ServiceSettingsError) -> ServiceSettings {
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "options", values: Dictionary(uniqueKeysWithValues: options.map {
                (AbsoluteConfigKey($0.key.split(separator: ".").map(String.init)), ConfigValue(.string($0.value), isSecret: false))
            })),
            KeyMappingProvider(upstream: EnvironmentVariablesProvider(environmentVariables: environment)) {
                $0.prepending([environmentPrefix])
            },
        ]
        if let configFile {
            try checkKeys(ofFile: configFile)
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: .init(configFile)))
            } catch {
                throw .unreadable(configFile, "\(error)")
            }
        }
        let reader = ConfigReader(providers: providers)
        var s = ServiceSettings()
        let source = configFile.map { "options, TANDEM_* or \($0)" } ?? "options or TANDEM_*"
        /// A text value; a number or a boolean where text belongs is an error, not a silent default.
        func string(_ key: String) throws(ServiceSettingsError) -> String? {
            if let text = reader.string(forKey: ConfigKey(key)) { return text }
            if let other = reader.int(forKey: ConfigKey(key)).map({ "\($0)" }) ?? reader.double(forKey: ConfigKey(key)).map({ "\($0)" })
                ?? reader.bool(forKey: ConfigKey(key)).map({ "\($0)" }) {
                throw .invalid(key, other, "text", source)
            }
            return nil
        }
        func number(_ key: String) throws(ServiceSettingsError) -> Double? {
            if let d = reader.double(forKey: ConfigKey(key)) { return d }
            if let i = reader.int(forKey: ConfigKey(key)) { return Double(i) }
            guard let text = try string(key) else { return nil }
            guard let d = Double(text), d.isFinite else { throw .invalid(key, text, "a number", source) }
            return d
        }
        s.listen = try string("listen") ?? s.listen
        s.adminListen = try string("admin.listen")
        if let level = try string("log.level") {
            guard let l = Logger.Level(rawValue: level.lowercased()) else {
                throw .invalid("log.level", level, "one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "), source)
            }
            s.logLevel = l
        }
        s.cacheDir = try string("cache.dir")
        if let mb = try number("cache.size") {
            guard mb >= 0, mb == mb.rounded() else { throw .invalid("cache.size", "\(mb)", "a whole number of MB, 0 or more", source) }
            s.cacheSizeMB = Int(mb)
        }
        if let seconds = try number("drain.seconds") {
            guard seconds >= 0 else { throw .invalid("drain.seconds", "\(seconds)", "0 or more seconds", source) }
            s.drainSeconds = seconds
        }
        s.cert = try string("cert")
        s.certKey = try string("cert.key")
        s.stateDir = try string("state.dir")
        if let b = reader.bool(forKey: "insecure") {
            s.insecure = b
        } else if let text = try string("insecure") {
            guard let b = Bool(text.lowercased()) else { throw .invalid("insecure", text, "true or false", source) }
            s.insecure = b
        }
        if let b = reader.bool(forKey: "port.mapping") {
            s.portMapping = b
        } else if let text = try string("port.mapping") {
            guard let b = Bool(text.lowercased()) else { throw .invalid("port.mapping", text, "true or false", source) }
            s.portMapping = b
        }
        s.publicAddress = try string("public.address")
        // Text first, so that an option or a variable wins over a file's bare port number.
        if let text = reader.string(forKey: "syncplay") {
            s.syncplay = text
        } else if let port = reader.int(forKey: "syncplay") {
            s.syncplay = "\(port)"
        } else {
            s.syncplay = try string("syncplay")
        }
        s.clusterURL = try string("cluster.url")
        s.clusterNode = try string("cluster.node")
        s.clusterAddress = try string("cluster.address")
        if let seconds = try number("cluster.lease") {
            guard seconds >= ClusterConfiguration.minimumLeaseSeconds else {
                throw .invalid("cluster.lease", "\(seconds)", "at least \(Int(ClusterConfiguration.minimumLeaseSeconds)) seconds", source)
            }
            s.clusterLeaseSeconds = seconds
        }
        return s
    }

    /// A config file must be a JSON object of known keys (nested or dotted): a typo is an error.
    static func checkKeys(ofFile path: String) throws(ServiceSettingsError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path, (error as NSError).localizedDescription)
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .unreadable(path, "not a JSON object")
        }
        func walk(_ object: [String: Any], prefix: String) throws(ServiceSettingsError) {
            for (key, value) in object {
                let full = prefix.isEmpty ? key : "\(prefix).\(key)"
                if let nested = value as? [String: Any], !keys.contains(full) {
                    try walk(nested, prefix: full)
                } else if !keys.contains(full) {
                    throw .unknownKey(full, path)
                }
            }
        }
        try walk(object, prefix: "")
    }
}

/// A setting that cannot be used, named with its key and where it came from.
public enum ServiceSettingsError: Error, Equatable, CustomStringConvertible {
    case unreadable(String, String)
    case unknownKey(String, String)
    case invalid(String, String, String, String)

    public var description: String {
        switch self {
        case .unreadable(let path, let why): "cannot read the config file \(path): \(why)"
        case .unknownKey(let key, let path): "\(path): unknown setting \"\(key)\" (known: \(ServiceSettings.keys.joined(separator: ", ")))"
        case .invalid(let key, let value, let expected, let source): "\(key) must be \(expected), not \"\(value)\" (from \(source))"
        }
    }
}
