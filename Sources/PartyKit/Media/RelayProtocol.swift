import Foundation

/// What a host and a party server say on the host's relay connection (`/party/ID/relay`), over
/// which the server fetches the bytes of the host's files for members without a copy. The host
/// dials the server, so a host behind NAT can share its files; the server never dials the host.
///
/// Control messages are JSON objects, one per WebSocket text frame, `{"type": …}` like the party
/// protocol; the media bytes travel raw, one chunk per binary frame (``RelayChunk``):
/// - host → server `relayOffer` {`party`, `seat` (the host's seat token from its welcome: guests know
///   the key, only the host knows this), `items` [{`index`, `bytes`, `sha256`?}]}
/// - server → host `relayFetch` {`id`, `item`, `offset`, `length`} (length ≤ ``RelayProtocol/chunkBytes``)
/// - host → server a binary frame with the chunk (``RelayProtocol/encodeChunk(_:)``), or the text
///   message `relayFailed` {`id`, `reason`, `unavailable`?}
/// - server → host `relayWebFetch` {`id`, `item`, `piece`} (protocol 8): what the host's converter makes
///   of an item for browsers (``WebMediaRequest``, named as under `web/`); the host answers with the
///   whole piece in piece frames (``RelayPieceChunk``), or `relayFailed` (`unavailable`: the host does
///   not make it, a 404 for the browser; otherwise converting it failed)
///
/// Up to party protocol version 2, chunks were text messages `relayChunk` {`id`, `data` (base64)}:
/// base64 made the host upload 4/3 of the bytes watched.
public enum RelayMessage: Sendable, Equatable {
    case offer(RelayOffer)
    case fetch(RelayFetch)
    case failed(RelayFailed)
    /// What the host's converter makes of an item (protocol 8).
    case webFetch(RelayWebFetch)
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
    /// True when the host converts its items for browsers (it answers ``RelayWebFetch``); absent or
    /// false: the server answers browsers' `web/` requests with 404 without asking.
    public var web: Bool?
    public init(party: String, seat: String, items: [Item], web: Bool? = nil) {
        self.party = party; self.seat = seat; self.items = items; self.web = web
    }
}

public struct RelayFetch: Sendable, Codable, Equatable {
    public var id: Int
    public var item: Int
    public var offset: Int64
    public var length: Int
    public init(id: Int, item: Int, offset: Int64, length: Int) { self.id = id; self.item = item; self.offset = offset; self.length = length }
}

/// The bytes a ``RelayFetch`` asked for: one binary WebSocket frame, host → server.
public struct RelayChunk: Sendable, Equatable {
    /// The fetch's `id`.
    public var id: Int
    public var data: [UInt8]
    public init(id: Int, data: [UInt8]) { self.id = id; self.data = data }
}

public struct RelayFailed: Sendable, Codable, Equatable {
    public var id: Int
    public var reason: String
    /// For a ``RelayWebFetch``: true when the host does not make that piece (``WebMediaUnavailable``:
    /// the browser gets 404 and `reason`); absent or false: making it failed (a 500).
    public var unavailable: Bool?
    public init(id: Int, reason: String, unavailable: Bool? = nil) { self.id = id; self.reason = reason; self.unavailable = unavailable }
}

/// Server → host (protocol 8): send the whole of `piece` of `item` as the host's converter makes it
/// for browsers, in piece frames (``RelayPieceChunk``) carrying `id`.
public struct RelayWebFetch: Sendable, Codable, Equatable {
    public var id: Int
    public var item: Int
    /// The piece's name under `web/` (``WebMediaPath/name(of:)``): `index.json`, `init.mp4`, `K.m4s`, `subs/T.vtt`.
    public var piece: String
    public init(id: Int, item: Int, piece: String) { self.id = id; self.item = item; self.piece = piece }
}

public enum RelayProtocol {
    /// Bytes per fetch. A chunk's frame (``chunkHeaderBytes`` more) stays well under the party
    /// server's 64 KiB message limit (``PartyProtocol/maxMessageBytes``), which caps binary frames
    /// as it does text ones; and the server's disk cache names its files by chunk index, so this
    /// size is part of what is stored there.
    public static let chunkBytes = 32 * 1024

    /// The first byte of a chunk frame: what the frame is. Any other value is refused, which leaves
    /// room for other binary frames in a later version.
    public static let chunkFrameKind: UInt8 = 1

    /// A chunk frame's header: the kind (1 byte), then the fetch's id (8 bytes, big-endian unsigned).
    public static let chunkHeaderBytes = 9

    /// The header of the frame carrying chunk `id`: its payload follows it, as is.
    public static func chunkHeader(id: Int) -> [UInt8] {
        let id = UInt64(clamping: id)
        return [chunkFrameKind] + (0..<8).map { UInt8(truncatingIfNeeded: id >> (56 - 8 * $0)) }
    }

    /// A chunk as one binary frame: ``chunkHeader(id:)`` then the bytes.
    public static func encodeChunk(_ chunk: RelayChunk) -> [UInt8] {
        chunkHeader(id: chunk.id) + chunk.data
    }

    /// The chunk in a binary frame; nil for a frame that is not one (another kind, a short header,
    /// an id out of range, more than ``chunkBytes`` of payload).
    public static func decodeChunk<Frame: Collection<UInt8>>(_ frame: Frame) -> RelayChunk? {
        guard frame.count >= chunkHeaderBytes, frame.count - chunkHeaderBytes <= chunkBytes,
              frame.first == chunkFrameKind else { return nil }
        let id = frame.dropFirst().prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard id <= UInt64(Int.max) else { return nil }
        return RelayChunk(id: Int(id), data: Array(frame.dropFirst(chunkHeaderBytes)))
    }
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
        case .failed(let m): data = try! encoder.encode(Tagged(type: "relayFailed", body: m))
        case .webFetch(let m): data = try! encoder.encode(Tagged(type: "relayWebFetch", body: m))
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
        case "relayFailed": return (try? decoder.decode(Tagged<RelayFailed>.self, from: data)).map { .failed($0.body) }
        case "relayWebFetch": return (try? decoder.decode(Tagged<RelayWebFetch>.self, from: data)).map { .webFetch($0.body) }
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
