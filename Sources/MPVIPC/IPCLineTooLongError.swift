/// A client sent more than the allowed number of bytes without a newline; its connection is closed.
struct IPCLineTooLongError: Error, CustomStringConvertible {
    /// The configured maximum line length in bytes.
    var limit: Int

    var description: String { "request line longer than \(limit) bytes" }
}
