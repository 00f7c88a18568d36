/// The application's refusal of a request, such as a seek by a guest in a watch party.
///
/// The ``reason`` is sent to the client verbatim as the reply's `error` string
/// (mpv clients treat anything other than `"success"` as a failure).
public struct IPCRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// A short human-readable reason, e.g. `"only the host may seek in this party"`.
    public var reason: String

    /// Creates a refusal with a human-readable reason.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
