import Foundation

/// What a host and a party server say on the host's relay connection (`/party/ID/relay`), over
/// which the server fetches the bytes of the host's files for members without a copy. The host
/// dials the server, so a host behind NAT can share its files; the server never dials the host.
///
/// One JSON object per WebSocket text frame, `{"type": …}` like the party protocol:
/// - host → server `relayOffer` {`party`, `seat` (the host's seat token from its welcome: guests know
///   the key, only the host knows this), `items` [{`index`, `bytes`, `sha256`?}]}
/// - server → host `relayFetch` {`id`, `item`, `offset`, `length`} (length ≤ ``chunkBytes``)
/// - host → server `relayChunk` {`id`, `data` (base64)} or `relayFailed` {`id`, `reason`}
public enum RelayMessage: Sendable, Equatable {
    case offer(RelayOffer)
    case fetch(RelayFetch)
    case chunk(RelayChunk)
    case failed(RelayFailed)
}

public struct RelayOffer: Sendable, Codable, Equatable {
    public struct Item: Sendable, Codable, Equatable {
        public var index: Int
        public var bytes: Int64
        /// The file's sampled SHA-256 (``MediaIdentity/sampleSHA256``): what the server's disk
        /// cache keys its chunks by, so another file under the same party and item never hits them.
        /// Absent (an older host): its chunks are cached in memory only.
        public var sha256: String?
        public init(index: Int, bytes: Int64, sha256: String? = nil) { self.index = index; self.bytes = bytes; self.sha256 = sha256 }
    }
    public var party: String
    /// The host's seat token.
    public var seat: String
    public var items: [Item]
    public init(party: String, seat: String, items: [Item]) { self.party = party; self.seat = seat; self.items = items }
}

public struct RelayFetch: Sendable, Codable, Equatable {
    public var id: Int
    public var item: Int
    public var offset: Int64
    public var length: Int
    public init(id: Int, item: Int, offset: Int64, length: Int) { self.id = id; self.item = item; self.offset = offset; self.length = length }
}

public struct RelayChunk: Sendable, Codable, Equatable {
    public var id: Int
    public var data: Data
    public init(id: Int, data: Data) { self.id = id; self.data = data }
}

public struct RelayFailed: Sendable, Codable, Equatable {
    public var id: Int
    public var reason: String
    public init(id: Int, reason: String) { self.id = id; self.reason = reason }
}

public enum RelayProtocol {
    /// Bytes per fetch: base64 makes 32 KiB into 43,692 characters, which with its JSON stays under
    /// the party server's 64 KiB message limit (``PartyProtocol/maxMessageBytes``).
    public static let chunkBytes = 32 * 1024
    /// The WebSocket path of a party's relay connection.
    public static func path(party: String) -> String { "/party/\(party)/relay" }

    /// The party of a relay path (`/party/ID/relay`, exactly), nil for any other path — a party
    /// may well be called "relay" (`/party/relay` is its WebSocket).
    public static func party(ofPath path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, parts[1] == "party", !parts[2].isEmpty, parts[3] == "relay" else { return nil }
        return String(parts[2])
    }

    public static func encode(_ message: RelayMessage) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        switch message {
        case .offer(let m): data = try! encoder.encode(Tagged(type: "relayOffer", body: m))
        case .fetch(let m): data = try! encoder.encode(Tagged(type: "relayFetch", body: m))
        case .chunk(let m): data = try! encoder.encode(Tagged(type: "relayChunk", body: m))
        case .failed(let m): data = try! encoder.encode(Tagged(type: "relayFailed", body: m))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Nil for anything that is not a well-formed relay message.
    public static func decode(_ text: String) -> RelayMessage? {
        guard text.utf8.count <= PartyProtocol.maxMessageBytes else { return nil }
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        guard let type = try? decoder.decode(TypeOnly.self, from: data).type else { return nil }
        switch type {
        case "relayOffer": return (try? decoder.decode(Tagged<RelayOffer>.self, from: data)).map { .offer($0.body) }
        case "relayFetch": return (try? decoder.decode(Tagged<RelayFetch>.self, from: data)).map { .fetch($0.body) }
        case "relayChunk": return (try? decoder.decode(Tagged<RelayChunk>.self, from: data)).map { .chunk($0.body) }
        case "relayFailed": return (try? decoder.decode(Tagged<RelayFailed>.self, from: data)).map { .failed($0.body) }
        default: return nil
        }
    }

    private struct TypeOnly: Decodable { let type: String }

    /// `{"type": …, fields of body…}`.
    private struct Tagged<Body: Codable>: Codable {
        let type: String
        let body: Body
        init(type: String, body: Body) { self.type = type; self.body = body }
        private enum Key: String, CodingKey { case type }
        init(from decoder: any Decoder) throws {
            type = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .type)
            body = try Body(from: decoder)
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(type, forKey: .type)
            try body.encode(to: encoder)
        }
    }
}
