/// Part of a converted piece (protocol 8): the host's answer to a ``RelayWebFetch``, one binary
/// WebSocket frame, host → server. The host sends a piece whole, in order, in as many frames as it
/// takes (at most ``RelayProtocol/chunkBytes`` each, so a frame stays under the message limit); the
/// first says how long the piece is, so the server knows when it has it all.
public struct RelayPieceChunk: Sendable, Equatable {
    /// The web fetch's `id`.
    public var id: Int
    /// Where `data` starts in the piece.
    public var offset: Int64
    /// The whole piece's length (the same in each of its frames).
    public var total: Int64
    public var data: [UInt8]
    public init(id: Int, offset: Int64, total: Int64, data: [UInt8]) {
        self.id = id; self.offset = offset; self.total = total; self.data = data
    }
}

/// A binary frame on the relay connection: a chunk of a file or part of a converted piece.
public enum RelayFrame: Sendable, Equatable {
    case chunk(RelayChunk)
    case piece(RelayPieceChunk)
}

extension RelayProtocol {
    /// The first byte of a piece frame (protocol 8).
    public static let pieceFrameKind: UInt8 = 2

    /// A piece frame's header: the kind (1 byte), then the fetch's id, the offset of its bytes in the
    /// piece and the piece's length (8 bytes each, big-endian unsigned).
    public static let pieceHeaderBytes = 25

    /// The longest piece the relay carries: the host's converter keeps 64 MiB of recent answers (a
    /// longer piece would not even stay there), and the server holds a piece whole in memory before
    /// it answers the browser. A 5 s segment of 8 Mb/s 1080p is 5 MB.
    public static let maxPieceBytes: Int64 = 64 << 20

    /// The frames carrying `bytes` as piece `id`: one per ``chunkBytes`` (one empty frame for an
    /// empty piece).
    public static func pieceFrames(id: Int, bytes: [UInt8]) -> [[UInt8]] {
        let total = Int64(bytes.count)
        return stride(from: 0, to: max(bytes.count, 1), by: chunkBytes).map { start in
            let end = min(start + chunkBytes, bytes.count)
            return [pieceFrameKind] + bigEndian(UInt64(clamping: id)) + bigEndian(UInt64(start)) + bigEndian(UInt64(total))
                + bytes[start..<end]
        }
    }

    /// What a binary frame on the relay connection is; nil for a frame that is neither a chunk
    /// frame (``decodeChunk(_:)``) nor a piece frame (a short header, a number out of range, more
    /// than ``chunkBytes`` of payload, a piece longer than ``maxPieceBytes``, bytes past its end).
    public static func decodeFrame<Frame: Collection<UInt8>>(_ frame: Frame) -> RelayFrame? {
        if frame.first == chunkFrameKind { return decodeChunk(frame).map(RelayFrame.chunk) }
        guard frame.first == pieceFrameKind, frame.count >= pieceHeaderBytes, frame.count - pieceHeaderBytes <= chunkBytes else {
            return nil
        }
        let numbers = (0..<3).map { field in
            frame.dropFirst(1 + 8 * field).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        guard numbers[0] <= UInt64(Int.max), numbers[2] <= UInt64(maxPieceBytes), numbers[1] <= numbers[2] else { return nil }
        let data = Array(frame.dropFirst(pieceHeaderBytes))
        let (id, offset, total) = (Int(numbers[0]), Int64(numbers[1]), Int64(numbers[2]))
        guard offset + Int64(data.count) <= total else { return nil }
        return .piece(RelayPieceChunk(id: id, offset: offset, total: total, data: data))
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
