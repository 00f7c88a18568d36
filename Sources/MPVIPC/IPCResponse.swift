/// What ``IPCRequestHandler/handle(line:)`` decided for one request line.
public struct IPCResponse: Sendable, Hashable {
    /// Messages to send to the client in this order: the reply first, then any events
    /// (such as the initial `property-change` after `observe_property`). Empty for blank lines.
    public var messages: [JSONValue]
    /// Whether the client asked the player to quit. The caller sends ``messages`` first and then
    /// calls ``IPCTarget/quit()``, so the client still receives its reply.
    public var quitRequested: Bool

    /// Creates a response.
    public init(messages: [JSONValue], quitRequested: Bool = false) {
        self.messages = messages
        self.quitRequested = quitRequested
    }
}
