import NIOCore

/// Splits a client's byte stream into newline-terminated lines (the newline is dropped).
///
/// Throws ``IPCLineTooLongError`` as soon as a line exceeds ``maxLineLength`` bytes, even before
/// its newline arrives, so one client cannot make the server buffer without bound. At end of
/// input a final unterminated line is delivered too.
struct IPCLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    let maxLineLength: Int
    /// How many readable bytes were already searched without finding a newline.
    private var searched = 0

    init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let line = try nextLine(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        while let line = try nextLine(from: &buffer) {
            context.fireChannelRead(Self.wrapInboundOut(line))
        }
        if seenEOF, buffer.readableBytes > 0, let rest = buffer.readSlice(length: buffer.readableBytes) {
            searched = 0
            context.fireChannelRead(Self.wrapInboundOut(rest))
        }
        return .needMoreData
    }

    /// Removes and returns the next complete line, or `nil` if no newline has arrived yet.
    private mutating func nextLine(from buffer: inout ByteBuffer) throws -> ByteBuffer? {
        let bytes = buffer.readableBytesView
        let unsearched = bytes.index(bytes.startIndex, offsetBy: min(searched, bytes.count))
        guard let newline = bytes[unsearched...].firstIndex(of: UInt8(ascii: "\n")) else {
            searched = bytes.count
            if bytes.count > maxLineLength { throw IPCLineTooLongError(limit: maxLineLength) }
            return nil
        }
        searched = 0
        let length = bytes.distance(from: bytes.startIndex, to: newline)
        if length > maxLineLength { throw IPCLineTooLongError(limit: maxLineLength) }
        let line = buffer.readSlice(length: length)
        buffer.moveReaderIndex(forwardBy: 1)
        return line
    }
}
