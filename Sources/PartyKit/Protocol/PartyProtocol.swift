import Foundation

/// Wire format: one JSON object per WebSocket text frame, `{"type": NAME, …fields}`.
public enum PartyProtocol {
    /// Bumped on any incompatible change; a hello with another version is refused with a clear error.
    /// 2: items are media descriptors (``MediaItem``), not file names.
    /// 3: the host's relay connection sends media chunks as binary frames (``RelayChunk``), not base64 text.
    /// 4: a cluster of servers: `error{code: redirect, redirect: NodeAddress}` sends a member to the
    ///    node that serves its party, and a welcome lists the live nodes (`nodes`) to reconnect to.
    /// 5: a cluster node tells its members when the live nodes change (`nodes`, ``NodeList``), so a
    ///    node added after they joined is one they can reconnect to.
    /// 6: a member's status carries its sound output (`output`, ``OutputReport``): the delay its output
    ///    reports and what it renders ahead, which the server adds to the lead of every command.
    /// 7: an item can be live (`MediaItem.live`, ``LiveOrigin``): its positions are on the stream's own
    ///    time line from the party's origin. A version-6 member would count from its own entry into the
    ///    stream and show another moment than the others'.
    /// 8 (two changes released together): a live item carries the party's hold behind the live edge
    ///    (``LiveOrigin/delay``), which the `live` command (any member's End key) brings everyone back
    ///    to. A version-7 member would not know how far behind the edge the party means to be.
    ///    And on the host's relay connection, the server asks for what the host's converter makes of an
    ///    item for browsers (`relayWebFetch`, ``RelayWebFetch``) and the host answers in piece frames
    ///    (``RelayPieceChunk``), so browser guests on `tandem serve` play Matroska and the like. A
    ///    version-7 host would ignore the request and leave the guest waiting.
    /// 9: a URL item can have its sound as a stream of its own (`MediaItem.audioURL`: a web page's
    ///    separate video and sound formats, played by every member on one clock). A version-8 member
    ///    would play the picture without sound.
    ///    And the host may give a URL item a new address (`itemURL`, ``ItemURL``) when its old one
    ///    was refused (a video site's expired link), which every member then opens.
    public static let version = 9
    /// Largest message accepted (bytes of JSON). A welcome with 50 chat lines and a long participant
    /// list stays far below it; anything larger is an attack or a bug.
    public static let maxMessageBytes = 64 * 1024
    /// Longest chat text kept (characters); longer text is cut.
    public static let maxChatLength = 2000
    public static let maxNameLength = 64
    /// Longest "can't play" reason kept (characters): one line for a participant list.
    public static let maxProblemLength = 200

    public enum DecodeError: Error, Equatable, CustomStringConvertible {
        case tooBig(Int)
        case notJSON
        case missingType
        case unknownType(String)
        case badFields(type: String, detail: String)

        public var description: String {
            switch self {
            case .tooBig(let n): "message too big (\(n) bytes > \(PartyProtocol.maxMessageBytes))"
            case .notJSON: "not a JSON object"
            case .missingType: "message has no \"type\""
            case .unknownType(let t): "unknown message type \"\(t.prefix(40))\""
            case .badFields(let t, let d): "bad \(t) message: \(d)"
            }
        }
    }

    public static func encode(_ message: PartyMessage) -> String {
        // Pings, pongs and statuses (most messages) without Foundation's encoder.
        HotMessageEncoder.encode(message) ?? encodeWithCodec(message)
    }

    /// The message as Foundation's encoder writes it.
    static func encodeWithCodec(_ message: PartyMessage) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // JSON has no NaN or infinity: written as strings they fail to decode on the other side
        // (a clear bad-message error) instead of trapping here. Nothing else can fail.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = try! encoder.encode(Envelope(message))
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes one message: the hot ones by ``HotMessageDecoder``, the others (and anything odd) in one
    /// pass of Foundation's decoder; every failure is a ``DecodeError``
    /// that names what is wrong (for the error sent back and the log).
    public static func decode(_ text: String) throws(DecodeError) -> PartyMessage {
        let bytes = text.utf8.count
        if bytes > maxMessageBytes { throw .tooBig(bytes) }
        // Pings, statuses and pongs (most messages) without Foundation's decoder; anything it is not
        // sure of is decided below.
        if let message = HotMessageDecoder.decode(text) { return message }
        do {
            return try JSONDecoder().decode(Envelope.self, from: Data(text.utf8)).message
        } catch let error as DecodeError {
            throw error
        } catch DecodingError.keyNotFound(let key, let context) where context.codingPath.isEmpty && key.stringValue == "type" {
            throw .missingType
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw .notJSON  // valid JSON, but not an object
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.map(\.stringValue) == ["type"] {
            throw .missingType  // "type" is not a string
        } catch DecodingError.valueNotFound(_, let context) where context.codingPath.map(\.stringValue) == ["type"] {
            throw .missingType  // "type": null
        } catch {
            throw .notJSON
        }
    }

    /// What is wrong with the fields of a message of `type`, in words.
    static func fieldError(_ error: any Error, type: String) -> DecodeError {
        func path(_ context: DecodingError.Context) -> String { context.codingPath.map(\.stringValue).joined(separator: ".") }
        switch error {
        case let error as DecodeError: return error
        case DecodingError.keyNotFound(let key, _): return .badFields(type: type, detail: "missing \"\(key.stringValue)\"")
        case DecodingError.typeMismatch(_, let context): return .badFields(type: type, detail: "wrong type at \(path(context))")
        case DecodingError.valueNotFound(_, let context): return .badFields(type: type, detail: "null at \(path(context))")
        case DecodingError.dataCorrupted(let context): return .badFields(type: type, detail: context.debugDescription)
        default: return .badFields(type: type, detail: "\(error)")
        }
    }
}

/// The `{"type": …, fields…}` shape: the payload's fields sit beside the type.
struct Envelope: Codable {
    let message: PartyMessage
    init(_ message: PartyMessage) { self.message = message }

    private enum Key: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .type)
        do {
            message = try Self.payload(type: type, from: decoder)
        } catch {
            throw PartyProtocol.fieldError(error, type: type)
        }
    }

    private static func payload(type: String, from decoder: any Decoder) throws -> PartyMessage {
        let message: PartyMessage
        switch type {
        case "hello": message = .hello(try Hello(from: decoder))
        case "timePing": message = .timePing(try TimePing(from: decoder))
        case "command": message = .command(try Command(from: decoder))
        case "status": message = .status(try Status(from: decoder))
        case "chat": message = .chat(try ChatText(from: decoder))
        case "listParticipants": message = .listParticipants
        case "bye": message = .bye
        case "welcome": message = .welcome(try Welcome(from: decoder))
        case "timePong": message = .timePong(try TimePong(from: decoder))
        case "timeline": message = .timeline(try Timeline(from: decoder))
        case "joined": message = .joined(try ParticipantInfo(from: decoder))
        case "left": message = .left(try Left(from: decoder))
        case "participants": message = .participants(try ParticipantList(from: decoder))
        case "chatMessage": message = .chatMessage(try ChatMessage(from: decoder))
        case "refused": message = .refused(try Refused(from: decoder))
        case "error": message = .error(try ErrorMessage(from: decoder))
        case "partyEnded": message = .partyEnded(try PartyEnded(from: decoder))
        case "hostChanged": message = .hostChanged(try ParticipantInfo(from: decoder))
        case "presence": message = .presence(try ParticipantInfo(from: decoder))
        case "nodes": message = .nodes(try NodeList(from: decoder))
        case "itemURL": message = .itemURL(try ItemURL(from: decoder))
        default: throw PartyProtocol.DecodeError.unknownType(type)
        }
        return message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(message.type, forKey: .type)
        switch message {
        case .hello(let m): try m.encode(to: encoder)
        case .timePing(let m): try m.encode(to: encoder)
        case .command(let m): try m.encode(to: encoder)
        case .status(let m): try m.encode(to: encoder)
        case .chat(let m): try m.encode(to: encoder)
        case .listParticipants, .bye: break
        case .welcome(let m): try m.encode(to: encoder)
        case .timePong(let m): try m.encode(to: encoder)
        case .timeline(let m): try m.encode(to: encoder)
        case .joined(let m), .hostChanged(let m), .presence(let m): try m.encode(to: encoder)
        case .left(let m): try m.encode(to: encoder)
        case .participants(let m): try m.encode(to: encoder)
        case .chatMessage(let m): try m.encode(to: encoder)
        case .refused(let m): try m.encode(to: encoder)
        case .error(let m): try m.encode(to: encoder)
        case .partyEnded(let m): try m.encode(to: encoder)
        case .nodes(let m): try m.encode(to: encoder)
        case .itemURL(let m): try m.encode(to: encoder)
        }
    }
}
