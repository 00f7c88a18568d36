/// Splits a byte stream into Syncplay's `\r\n`-terminated lines (a bare `\n` is accepted too, as
/// Twisted's LineReceiver would not but Python's `strip()` makes harmless), refusing any line
/// longer than the limit as soon as that many bytes have arrived without an end: a peer that
/// never ends its line cannot make this buffer grow without bound.
public struct SyncplayLineFramer: Sendable {
    public let maxLineBytes: Int
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` already searched for a newline.
    private var scanned = 0

    public init(maxLineBytes: Int = SyncplayCodec.maxLineBytes) {
        self.maxLineBytes = maxLineBytes
    }

    /// Bytes held for an unfinished line.
    public var pendingBytes: Int { buffer.count }

    /// Appends `bytes` and returns the complete lines now available (without their terminator;
    /// empty lines are dropped), or throws ``SyncplayProtocolError/lineTooLong(bytes:limit:)``.
    /// After a throw the framer must not be used again.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws(SyncplayProtocolError) -> [[UInt8]] where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        var lines: [[UInt8]] = []
        var start = 0
        var index = scanned
        while index < buffer.count {
            if buffer[index] == UInt8(ascii: "\n") {
                var end = index
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end - start > maxLineBytes { throw .lineTooLong(bytes: end - start, limit: maxLineBytes) }
                if end > start { lines.append(Array(buffer[start..<end])) }
                start = index + 1
            }
            index += 1
        }
        buffer.removeFirst(start)
        scanned = buffer.count
        // The terminator's "\r" may still come: one byte of grace.
        if buffer.count > maxLineBytes + 1 { throw .lineTooLong(bytes: buffer.count, limit: maxLineBytes) }
        return lines
    }
}
