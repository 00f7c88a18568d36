import Logging
import NIOCore

/// One connected client: its channel and the task that serves it.
///
/// The channel handler puts request lines into the client's ``IPCConnectionInbox``; a single task
/// takes the work out one item at a time, awaits the ``IPCTarget`` through an
/// ``IPCRequestHandler`` and writes the replies back through the channel. Property changes go
/// through the same inbox, so a client always sees the reply to `observe_property` before that
/// observer's events; the inbox coalesces them, so a client that stops reading holds at most
/// ``IPCConnectionInbox/maxPendingChanges`` of them. Nothing here runs on the event loop except
/// the enqueueing.
final class IPCConnection: Sendable {
    /// Server-unique client number, used in log metadata.
    let id: Int
    let channel: any Channel
    private let queue: IPCConnectionQueue
    private let throttle: IPCReadThrottle
    private let logger: Logger
    private let server: Task<Void, Never>

    init(id: Int, channel: any Channel, target: any IPCTarget, logger: Logger) {
        self.id = id
        self.channel = channel
        self.logger = logger
        let queue = IPCConnectionQueue()
        let throttle = IPCReadThrottle()
        self.queue = queue
        self.throttle = throttle
        self.server = Task {
            await Self.serve(queue, channel: channel, target: target, throttle: throttle, logger: logger)
        }
    }

    /// Queues a request line (called on the event loop); returns `true` when the caller should
    /// stop reading from the client until the queue drains.
    func enqueue(line: String) -> Bool {
        guard queue.add(line: line) else { return false }
        return throttle.lineQueued()
    }

    /// Queues a property change for this client's observers, merging it into a waiting change of
    /// the same property.
    func enqueue(change: IPCPropertyChange) {
        if queue.add(change: change) == .coalesced(firstTime: true) {
            logger.info("IPC client is not keeping up; only the latest value of each property is kept for it")
        }
    }

    /// Lines and changes waiting to be handled, for tests.
    var inboxSnapshot: (count: Int, pendingChanges: Int, coalesced: Int) { queue.snapshot }

    /// No more input will come: the task handles what is queued, then closes the channel.
    func finishInput() {
        queue.finish()
    }

    /// Stops serving at once: queued requests are dropped (one already running completes).
    func cancel() {
        queue.cancel()
        server.cancel()
    }

    private static func serve(
        _ queue: IPCConnectionQueue,
        channel: any Channel,
        target: any IPCTarget,
        throttle: IPCReadThrottle,
        logger: Logger
    ) async {
        var handler = IPCRequestHandler(target: target)
        await queue.run { input in
            await handle(input, handler: &handler, channel: channel, target: target, throttle: throttle, logger: logger)
        }
        try? await channel.close().get()
    }

    private static func handle(
        _ input: IPCConnectionInput,
        handler: inout IPCRequestHandler,
        channel: any Channel,
        target: any IPCTarget,
        throttle: IPCReadThrottle,
        logger: Logger
    ) async {
        switch input {
        case .line(let line):
            logger.trace("IPC request", metadata: ["line": "\(line)"])
            let response = await handler.handle(line: line)
            await send(response.messages, on: channel)
            if throttle.lineHandled() {
                _ = channel.setOption(ChannelOptions.autoRead, value: true)
            }
            if response.quitRequested {
                logger.info("IPC client asked the player to quit")
                await target.quit()
            }
        case .change(let change):
            await send(handler.propertyChanged(change), on: channel)
        }
    }

    /// Writes messages as JSON lines and waits until they are written (or the channel is gone),
    /// so a client that stops reading stops this task rather than filling memory.
    private static func send(_ messages: [JSONValue], on channel: any Channel) async {
        guard !messages.isEmpty else { return }
        var buffer = channel.allocator.buffer(capacity: 64 * messages.count)
        for message in messages {
            buffer.writeString(message.serialized)
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        try? await channel.writeAndFlush(buffer).get()
    }
}
