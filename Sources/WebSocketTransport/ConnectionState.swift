import NIOCore
import Synchronization

/// Thread-safe facts about one TCP connection shared by its channel handlers and its
/// ``WebSocketConnection``: why it closed (first reason wins) and whether `close` was already issued,
/// so that every path that wants the channel gone closes it exactly once.
final class ConnectionState: Sendable {
    private struct Fields {
        var reason: String?
        var closeIssued = false
    }

    private let fields = Mutex(Fields())

    init() {}

    /// The first recorded reason, or `nil` while the connection is healthy.
    var reason: String? {
        self.fields.withLock { $0.reason }
    }

    /// Records why the connection is closing unless an earlier reason is already known.
    func record(_ reason: String) {
        self.fields.withLock { fields in
            if fields.reason == nil { fields.reason = reason }
        }
    }

    /// Closes `channel` fully unless this state already did.
    func close(_ channel: any Channel) {
        let first = self.fields.withLock { fields in
            defer { fields.closeIssued = true }
            return !fields.closeIssued
        }
        if first { channel.close(promise: nil) }
    }
}
