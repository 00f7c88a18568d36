import DequeModule
import NIOCore
import NIOPosix

/// Turns file regions written by an ``HTTPResponder`` (sendfile bodies) into byte buffers for a TLS
/// connection, which can only encrypt bytes it holds. Sits just above the TLS handler.
///
/// A region is read in ``chunkBytes`` pieces on NIO's thread pool (the event loop never reads files),
/// each written as soon as it is read while the channel is writable; when it is not, reading waits for
/// writability, so a slow reader holds at most the high watermark plus one chunk. Writes that come
/// while a region is being streamed wait behind it, in order, and so do flushes. The region's promise
/// succeeds when its last byte is written, so the responder's "body done" logic (closing its file)
/// runs after the bytes are out, as with sendfile.
///
/// When the connection goes (a browser drops a media request on every seek) while a chunk is being
/// read, the region's promise and those behind it fail only once that read is back: the file's owner
/// closes the file when they complete, and `NIOFileHandle.close()` refuses a handle a pool thread is
/// reading from — a refusal the owner cannot act on, which left the file open (a descriptor leaked
/// per dropped request, and a debug build's `NIOFileHandle` deinit assertion).
final class FileRegionReader: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    static let name = "tandem.ws.file-region-reader"

    /// Bytes read from the file per step. Each step costs a round trip to NIO's thread pool — two
    /// cross-thread wake-ups (the pool thread's condition, then the event loop's eventfd) and a buffer
    /// allocation — whatever its size, while the bytes themselves cost the same per byte either way
    /// (pread, then TLS copies and encrypts them record by record). At 64 KiB those fixed costs were
    /// paid every 4 TLS records; 256 KiB pays them every 16, for a 1 MiB write-buffer high watermark
    /// a slow reader holds at most a quarter more. (16 parallel whole-file downloads over TLS took
    /// 1.29× nginx's time at 64 KiB, against 1.01× without TLS, where sendfile has no steps.)
    static let chunkBytes = 256 * 1024

    private enum Pending {
        case write(IOData, EventLoopPromise<Void>?)
        case flush
    }

    private struct Streaming {
        var region: FileRegion
        var promise: EventLoopPromise<Void>?
        /// A chunk is being read on the thread pool.
        var reading = false
    }

    /// Reads `count` bytes of a file from an offset, off the event loop (NonBlockingFileIO's `read`).
    typealias ChunkRead = (_ file: NIOFileHandle, _ offset: Int64, _ count: Int, _ allocator: ByteBufferAllocator,
                           _ loop: any EventLoop) -> EventLoopFuture<ByteBuffer>

    private let readChunk: ChunkRead
    private var streaming: Streaming?
    private var queue = Deque<Pending>()
    private var failed: (any Error)?

    convenience init(fileIO: NonBlockingFileIO = NonBlockingFileIO(threadPool: .singleton)) {
        self.init { file, offset, count, allocator, loop in
            fileIO.read(fileHandle: file, fromOffset: offset, byteCount: count, allocator: allocator, eventLoop: loop)
        }
    }

    /// `readChunk`: how a chunk is read (tests hold a read in flight).
    init(readChunk: @escaping ChunkRead) {
        self.readChunk = readChunk
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let data = Self.unwrapOutboundIn(data)
        if let failed {
            // Behind a read in flight, it fails with the rest when that read is back.
            if streaming?.reading == true { queue.append(.write(data, promise)) } else { promise?.fail(failed) }
            return
        }
        guard streaming == nil, queue.isEmpty else {
            queue.append(.write(data, promise))
            return
        }
        self.send(data, promise: promise, context: context)
    }

    func flush(context: ChannelHandlerContext) {
        if streaming == nil, queue.isEmpty {
            context.flush()
        } else {
            queue.append(.flush)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { self.step(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.fail(ChannelError.ioOnClosedChannel)
    }

    /// Passes bytes on, or starts streaming a region.
    private func send(_ data: IOData, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        switch data {
        case .byteBuffer:
            context.write(Self.wrapOutboundOut(data), promise: promise)
        case .fileRegion(let region):
            guard region.readableBytes > 0 else {
                promise?.succeed()
                return
            }
            streaming = Streaming(region: region, promise: promise)
            self.step(context: context)
        }
    }

    /// Reads and writes the next chunk of the region when the channel can take it; finishes the region
    /// and drains the queue when it is done.
    private func step(context: ChannelHandlerContext) {
        guard var current = streaming, !current.reading, failed == nil else { return }
        guard current.region.readableBytes > 0 else {
            streaming = nil
            current.promise?.succeed()
            self.drain(context: context)
            return
        }
        guard context.channel.isWritable else { return }
        current.reading = true
        streaming = current
        let count = min(Self.chunkBytes, current.region.readableBytes)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        readChunk(current.region.fileHandle, Int64(current.region.readerIndex), count, context.channel.allocator, context.eventLoop)
            .whenComplete { result in
                let (handler, context) = bound.value
                handler.read(result, context: context)
            }
    }

    private func read(_ result: Result<ByteBuffer, any Error>, context: ChannelHandlerContext) {
        guard var current = streaming else { return }
        if let failed {
            // The connection went while this chunk was read: the file is free again, and its owner may close it.
            current.reading = false
            streaming = current
            return failPending(failed)
        }
        switch result {
        case .failure(let error):
            self.fail(error)
            context.close(promise: nil)
        case .success(let buffer):
            guard buffer.readableBytes > 0 else {
                // The file is shorter than the region said: the body cannot be completed.
                self.fail(ChannelError.ioOnClosedChannel)
                context.close(promise: nil)
                return
            }
            current.reading = false
            current.region.moveReaderIndex(forwardBy: buffer.readableBytes)
            streaming = current
            context.writeAndFlush(Self.wrapOutboundOut(.byteBuffer(buffer)), promise: nil)
            self.step(context: context)
        }
    }

    /// Sends what waited behind a region, up to the next region.
    private func drain(context: ChannelHandlerContext) {
        while streaming == nil, failed == nil, let next = queue.popFirst() {
            switch next {
            case .write(let data, let promise): self.send(data, promise: promise, context: context)
            case .flush: context.flush()
            }
        }
    }

    private func fail(_ error: any Error) {
        guard failed == nil else { return }
        failed = error
        // A chunk being read holds the region's file: its promise (whose completion closes the file)
        // and the writes behind it wait for that read (``read(_:context:)``).
        if streaming?.reading == true { return }
        failPending(error)
    }

    /// Fails the region streamed and every write behind it.
    private func failPending(_ error: any Error) {
        streaming?.promise?.fail(error)
        streaming = nil
        while let next = queue.popFirst() {
            if case .write(_, let promise) = next { promise?.fail(error) }
        }
    }
}

@available(*, unavailable)
extension FileRegionReader: Sendable {}
