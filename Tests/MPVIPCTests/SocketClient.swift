import MPVIPC
import TestSupport

extension SocketClient {
    /// Sends one request object as a line.
    func send(request: JSONValue) async throws {
        try await send(request.serialized + "\n")
    }

    /// The next line from the server, parsed; throws on timeout or when the server closed.
    func nextMessage(timeout: Duration = .seconds(5)) async throws -> JSONValue {
        let line = try await nextLine(timeout: timeout)
        guard let message = JSONValue.parse(line) else {
            throw SocketClientError(description: "server sent malformed JSON: \(line)")
        }
        return message
    }
}
