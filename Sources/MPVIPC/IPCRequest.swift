import Foundation

/// One client request as mpv reads it: a JSON object with a `command` array and an optional
/// `request_id`, decoded with Foundation's `JSONDecoder`.
///
/// Every member is decoded (so the depth limit of ``JSONValue/maxDepth`` applies to all of them),
/// but only these two are used; `async` and unknown members are ignored, as in mpv.
struct IPCRequest: Decodable, Sendable {
    /// Echoed in the reply verbatim; 0 when absent (mpv's default).
    var requestID: JSONValue
    /// The command name and its arguments; `nil` when missing or not an array.
    var command: [JSONValue]?

    init(from decoder: any Decoder) throws {
        let members = try [String: JSONValue](from: decoder)
        requestID = members["request_id"] ?? 0
        if case .array(let command)? = members["command"] { self.command = command } else { command = nil }
    }

    /// Decodes one request line, or returns `nil` when it is not a well-formed JSON object.
    static func decode(_ line: String) -> IPCRequest? {
        try? JSONDecoder().decode(IPCRequest.self, from: Data(line.utf8))
    }
}
