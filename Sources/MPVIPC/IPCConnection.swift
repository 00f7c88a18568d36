import Logging
import NIOCore

/// One connected client: its channel and the task that serves it.
///
/// The channel handler feeds request lines into a queue; a single task takes them one at a time,
/// awaits the ``IPCTarget`` through an ``IPCRequestHandler`` and writes the replies back through
/// the channel. Property changes go through the same queue, so a client always sees the reply to
/// `observe_property` before that observer's events. Nothing here runs on the event loop except
/// the enqueueing.
final class IPCConnection: Sendable {
    /// Server-unique client number, used in log metadata.
    let id: Int
    let channel: any Channel
    private let inputs: AsyncStream<IPCConnectionInput>.Continuation
    private let throttle: IPCReadThrottle
    private let server: Task<Void, Never>

    init(id: Int, channel: any Channel, target: any IPCTarget, logger: Logger) {
        self.id = id
        self.channel = channel
        let (stream, continuation) = AsyncStream.makeStream(of: IPCConnectionInput.self)
        let throttle = IPCReadThrottle()
        self.inputs = continuation
        self.throttle = throttle
        self.server = Task {
            await Self.serve(stream, channel: channel, target: target, throttle: throttle, logger: logger)
        }
    }

    /// Queues a request line (called on the event loop); returns `true` when the caller should
    /// stop reading from the client until the queue drains.
    func enqueue(line: String) -> Bool {
        guard case .enqueued = inputs.yield(.line(line)) else { return false }
        return throttle.lineQueued()
    }

    /// Queues a property change for this client's observers.
    func enqueue(change: IPCPropertyChange) {
        inputs.yield(.change(change))
    }

    /// No more input will come: the task handles what is queued, then closes the channel.
    func finishInput() {
        inputs.finish()
    }

    /// Stops serving at once: queued requests are dropped (one already running completes).
    func cancel() {
        inputs.finish()
        server.cancel()
    }

    private static func serve(
        _ inputs: AsyncStream<IPCConnectionInput>,
        channel: any Channel,
        target: any IPCTarget,
        throttle: IPCReadThrottle,
        logger: Logger
    ) async {
        var handler = IPCRequestHandler(target: target)
        for await input in inputs {
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
        try? await channel.close().get()
    }

    /// Writes messages as JSON lines and waits until they are written (or the channel is gone),
    /// so a client that stops reading eventually stops this task rather than filling memory.
    private static func send(_ messages: [IPCJSON], on channel: any Channel) async {
        guard !messages.isEmpty else { return }
        var buffer = channel.allocator.buffer(capacity: 64 * messages.count)
        for message in messages {
            buffer.writeString(message.serialized)
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        try? await channel.writeAndFlush(buffer).get()
    }
}
