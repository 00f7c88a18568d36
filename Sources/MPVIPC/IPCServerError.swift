/// ``IPCServer/start()`` could not listen on its socket path.
public struct IPCServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket path the server was asked to listen on.
    public var path: String
    /// Why it failed, e.g. `"directory /run/tandem does not exist"`.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "cannot listen for mpv IPC clients on \(path): \(reason)"
    }
}
