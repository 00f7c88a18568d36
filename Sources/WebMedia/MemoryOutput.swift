import CFFmpeg

/// Owns a write-only `AVIOContext` whose bytes land in memory: a muxer writes into ``pointer`` and
/// its output is ``bytes``. This object is the one owner of the context and of its buffer (which
/// libavformat may have replaced): both are freed in `deinit`, after the muxer that wrote into it
/// (``MemoryMuxer`` holds this object and frees its format context first).
final class MemoryOutput {
    /// libavformat's write buffer: what it gathers before calling back. 64 KiB is avio's own default
    /// size class; the callback copies out, so the size only sets how often it runs.
    static let bufferBytes = 64 * 1024

    private(set) var pointer: UnsafeMutablePointer<AVIOContext>?
    /// Everything written so far (flushed through ``flush()``).
    private(set) var bytes: [UInt8] = []
    /// While true, what is written is dropped (a trailer nobody reads).
    var discarding = false

    init() {
        guard let buffer = av_malloc(Self.bufferBytes)?.assumingMemoryBound(to: UInt8.self) else {
            fatalError("av_malloc: out of memory")
        }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        // No seek callback: the output is a stream, which the MP4 muxer writes fragments to as they are.
        guard let context = avio_alloc_context(buffer, Int32(Self.bufferBytes), 1, opaque, nil, { opaque, data, size in
            guard let opaque, let data, size > 0 else { return 0 }
            let output = Unmanaged<MemoryOutput>.fromOpaque(opaque).takeUnretainedValue()
            if !output.discarding { output.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(size))) }
            return size
        }, nil) else {
            av_free(buffer)
            fatalError("avio_alloc_context: out of memory")
        }
        pointer = context
    }

    deinit {
        if let pointer {
            // The buffer in use may not be the one given at init: avio can swap it.
            av_freep(&pointer.pointee.buffer)
        }
        avio_context_free(&pointer)
    }

    /// Pushes what the context holds out to ``bytes``.
    func flush() { avio_flush(pointer) }
}
