import NIOCore

/// Sits on the raw bytes in front of NIO's `WebSocketFrameDecoder` and reads only frame headers, so it can
/// refuse a message before its payload is buffered and say exactly how big it claimed to be.
///
/// Checks per frame header: reserved bits unset (no extensions are negotiated), masking as RFC 6455 §5.1
/// requires (client → server masked, server → client unmasked), and the running size of a data message
/// (first frame plus continuations) against the limit. On a violation it passes on the bytes of the frames
/// before the offending one, fires a ``Violation`` and drops everything after.
final class WebSocketFrameGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Why the guard stopped the byte stream.
    enum Violation: Error, Equatable {
        /// A data message announced `bytes` bytes (so far) above the limit.
        case messageTooBig(bytes: Int, limit: Int)
        /// A header broke the framing rules.
        case protocolViolation(String)
    }

    private enum ParseState {
        /// Collecting header bytes (at most 14).
        case header
        /// Skipping this many payload bytes of the current frame.
        case payload(remaining: Int)
        /// A violation was reported; every later byte is dropped.
        case failed
    }

    private let expectMasked: Bool
    private let maxMessageBytes: Int
    private var state = ParseState.header
    private var header: [UInt8] = []
    /// Payload bytes of the data message being assembled from fragments so far.
    private var messageBytes = 0

    init(expectMaskedFrames: Bool, maxMessageBytes: Int) {
        self.expectMasked = expectMaskedFrames
        self.maxMessageBytes = maxMessageBytes
        self.header.reserveCapacity(14)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .failed = self.state { return }
        let buffer = Self.unwrapInboundIn(data)
        let start = buffer.readerIndex
        let end = buffer.writerIndex
        var offset = start
        // Where the header being parsed began, when it began inside this buffer.
        var frameStart = start

        while offset < end {
            switch self.state {
            case .payload(let remaining):
                let step = min(remaining, end - offset)
                offset += step
                self.state = remaining == step ? .header : .payload(remaining: remaining - step)
            case .header:
                if self.header.isEmpty { frameStart = offset }
                self.header.append(buffer.getInteger(at: offset, as: UInt8.self)!)
                offset += 1
                guard let needed = self.headerLength(), self.header.count == needed else { continue }
                do {
                    let payload = try self.checkHeader()
                    self.header.removeAll(keepingCapacity: true)
                    self.state = payload == 0 ? .header : .payload(remaining: payload)
                } catch {
                    self.state = .failed
                    self.header = []
                    if frameStart > start, let before = buffer.getSlice(at: start, length: frameStart - start) {
                        context.fireChannelRead(Self.wrapInboundOut(before))
                    }
                    context.fireErrorCaught(error)
                    return
                }
            case .failed:
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// The full header length once the second byte is known.
    private func headerLength() -> Int? {
        guard self.header.count >= 2 else { return nil }
        let second = self.header[1]
        let lengthBytes: Int
        switch second & 0x7F {
        case 126: lengthBytes = 2
        case 127: lengthBytes = 8
        default: lengthBytes = 0
        }
        return 2 + lengthBytes + (second & 0x80 != 0 ? 4 : 0)
    }

    /// Validates the complete header in `self.header` and returns the payload length.
    private func checkHeader() throws(Violation) -> Int {
        let first = self.header[0]
        let second = self.header[1]
        if first & 0x70 != 0 {
            throw .protocolViolation("reserved frame bits set without a negotiated extension")
        }
        let masked = second & 0x80 != 0
        if masked != self.expectMasked {
            throw .protocolViolation(self.expectMasked ? "client frame is not masked" : "server frame is masked")
        }
        var length: UInt64
        switch second & 0x7F {
        case 126:
            length = UInt64(self.header[2]) << 8 | UInt64(self.header[3])
        case 127:
            length = 0
            for byte in self.header[2..<10] { length = length << 8 | UInt64(byte) }
        default:
            length = UInt64(second & 0x7F)
        }
        let payload = length > UInt64(Int.max / 2) ? Int.max / 2 : Int(length)

        let fin = first & 0x80 != 0
        switch first & 0x0F {
        case 0x0:  // continuation
            self.messageBytes += payload
        case 0x1, 0x2:  // text, binary: a new message
            self.messageBytes = payload
        default:  // control frames: the decoder enforces their 125-byte limit
            return payload
        }
        if self.messageBytes > self.maxMessageBytes {
            throw .messageTooBig(bytes: self.messageBytes, limit: self.maxMessageBytes)
        }
        if fin { self.messageBytes = 0 }
        return payload
    }
}

@available(*, unavailable)
extension WebSocketFrameGuard: Sendable {}
