import CFFmpeg

/// Owns one `AVPacket`. Moves between threads through the packet queues, which hand it to
/// exactly one consumer: that hand-off is why it may be `@unchecked Sendable`.
public final class Packet: @unchecked Sendable {
    package let pointer: UnsafeMutablePointer<AVPacket>

    public init() {
        guard let p = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    public var streamIndex: Int { Int(pointer.pointee.stream_index) }
    /// Payload size in bytes.
    public var size: Int { Int(pointer.pointee.size) }
    /// Duration in stream time-base units (0 when unknown).
    public var duration: Int64 { pointer.pointee.duration }
    public var pts: Int64 { pointer.pointee.pts }
    public var dts: Int64 { pointer.pointee.dts }

    public func unref() { av_packet_unref(pointer) }
}

extension Packet {
    /// Moves `source`'s reference into this packet, leaving `source` empty for the next read.
    public func take(from source: Packet) {
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, source.pointer)
    }
}
