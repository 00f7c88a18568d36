import NIOCore

/// How the gateway ends a connection it refuses: what was written goes out, then its half of the
/// connection is shut (FIN), and what the peer still sends is read and dropped for a moment before
/// the socket closes. Closing at once with the peer's bytes unread makes the kernel answer with a
/// reset, and a reset can destroy the `Error` line the peer has not read yet.
package enum SyncplayLingeringClose {
    /// Long enough for the peer to read the error and close on its side; short enough that a peer
    /// that keeps sending (a line that never ends) is cut off promptly.
    static let linger = TimeAmount.seconds(2)

    package static func close(_ channel: any Channel) {
        channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        }
    }
}
