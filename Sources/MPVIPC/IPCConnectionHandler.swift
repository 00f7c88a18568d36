import Logging
import NIOCore

/// The last handler of a client's pipeline (after the line decoder): queues each line for the
/// client's serving task, pauses reading when too many are queued, and closes the client on
/// errors such as an over-long line.
final class IPCConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let connection: IPCConnection
    private let registry: IPCClientRegistry
    private let logger: Logger

    init(connection: IPCConnection, registry: IPCClientRegistry, logger: Logger) {
        self.connection = connection
        self.registry = registry
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        logger.debug("IPC client connected")
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Invalid UTF-8 is repaired here; such a line is answered as malformed if it matters.
        let line = String(buffer: unwrapInboundIn(data))
        if connection.enqueue(line: line) {
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            // The client shut down its sending side (e.g. `echo … | socat`): answer what it sent, then close.
            logger.debug("IPC client finished sending")
            connection.finishInput()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        logger.debug("IPC client disconnected")
        registry.remove(connection)
        connection.finishInput()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is IPCLineTooLongError {
            logger.warning("Closing IPC client: \(error)")
        } else {
            logger.debug("Closing IPC client after error: \(error)")
        }
        context.close(promise: nil)
    }
}
