import Foundation

/// Trust on first use for party servers, like ssh's known_hosts: the file `known-servers` in the state
/// folder holds one `HOST:PORT FINGERPRINT` line per server a host has used. The first use remembers the
/// fingerprint; a different one later is refused, naming both.
public struct KnownServers: Sendable {
    public static let fileName = "known-servers"

    public let state: StateDirectory

    public init(state: StateDirectory) {
        self.state = state
    }

    /// The full path of the file, for messages.
    public var path: String { state.file(Self.fileName) }

    /// What became of a fingerprint a server showed.
    public enum Decision: Sendable, Equatable {
        /// The server was known with this fingerprint.
        case known
        /// First use: the fingerprint is now remembered.
        case remembered
    }

    /// Every remembered `HOST:PORT` and its fingerprint.
    public func entries() throws -> [String: String] {
        guard let data = try state.read(Self.fileName) else { return [:] }
        var out: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, !line.hasPrefix("#") else { continue }
            out[String(fields[0])] = String(fields[1])
        }
        return out
    }

    /// Accepts `seen` for `address` if it is the remembered fingerprint, or remembers it on first use;
    /// throws ``SecurityError/knownServerChanged(address:known:seen:file:)`` if another one is remembered.
    public func check(address: String, seen: String) throws -> Decision {
        var entries = try entries()
        if let known = entries[address] {
            guard known == seen else { throw SecurityError.knownServerChanged(address: address, known: known, seen: seen, file: path) }
            return .known
        }
        entries[address] = seen
        let text = entries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        try state.write(Data(text.utf8), to: Self.fileName)
        return .remembered
    }
}
