import Foundation
import NIOCore
import Synchronization
import NIOEmbedded
import Testing
import TestSupport
@testable import WebSocketTransport

/// A file region streamed over TLS by ``FileRegionReader`` whose connection goes while a chunk is being
/// read: the region's owner closes its file when the region's writes complete, and a pool thread
/// reading from it makes that close fail and the file stay open. So those writes complete only once
/// the read is back — a browser drops a media request on every seek, and each left a descriptor open.
@Suite struct FileRegionReaderTests {
    @Test func theWritesOfAClosedConnectionCompleteOnlyOnceTheChunkBeingReadIsBack() throws {
        try Self.withReader(fileBytes: 1000) { file, channel, reads in
            let regionDone = channel.eventLoop.makePromise(of: Void.self)
            let endDone = channel.eventLoop.makePromise(of: Void.self)
            let done = Completions()
            var completed: [String] { done.names }
            regionDone.futureResult.whenComplete { _ in done.add("region") }
            endDone.futureResult.whenComplete { _ in done.add("end") }
            channel.write(IOData.fileRegion(FileRegion(fileHandle: file, readerIndex: 0, endIndex: 1000)), promise: regionDone)
            channel.write(IOData.byteBuffer(ByteBuffer()), promise: endDone)
            channel.flush()
            #expect(reads.pending.count == 1, "the first chunk is being read")

            channel.pipeline.fireChannelInactive()  // the browser went
            #expect(completed.isEmpty, "nothing completes while the chunk is read: the owner would close a file in use")
            // A write that comes meanwhile waits with them.
            let late = channel.eventLoop.makePromise(of: Void.self)
            late.futureResult.whenComplete { _ in done.add("late") }
            channel.write(IOData.byteBuffer(ByteBuffer()), promise: late)
            #expect(completed.isEmpty)

            reads.pending[0].succeed(ByteBuffer(repeating: 7, count: reads.counts[0]))
            #expect(completed == ["region", "end", "late"])
            #expect(reads.pending.count == 1, "no further chunk is read for a gone connection")
        }
    }

    @Test func aConnectionThatGoesBetweenChunksFailsAtOnce() throws {
        try Self.withReader(fileBytes: 10) { file, channel, reads in
            let done = channel.eventLoop.makePromise(of: Void.self)
            let failures = Completions()
            done.futureResult.whenFailure { _ in failures.add("end") }
            channel.write(IOData.fileRegion(FileRegion(fileHandle: file, readerIndex: 0, endIndex: 10)), promise: nil)
            channel.write(IOData.byteBuffer(ByteBuffer()), promise: done)
            channel.flush()
            reads.pending[0].succeed(ByteBuffer(repeating: 7, count: 10))
            #expect(failures.names.isEmpty)
            channel.pipeline.fireChannelInactive()
            let after = channel.eventLoop.makePromise(of: Void.self)
            after.futureResult.whenFailure { _ in failures.add("after") }
            channel.write(IOData.byteBuffer(ByteBuffer()), promise: after)
            #expect(failures.names == ["after"], "no read in flight: a write after the connection went fails at once")
        }
    }
}

extension FileRegionReaderTests {
    /// A ``FileRegionReader`` on an embedded channel whose chunk reads the test completes
    /// (``ReadsInFlight``), and a file of `fileBytes` bytes to stream; `body` runs with them, then the
    /// file is closed (it must be closable: nothing reads it) and the channel finished.
    static func withReader(fileBytes: Int, _ body: (NIOFileHandle, EmbeddedChannel, ReadsInFlight) throws -> Void) throws {
        let folder = try TemporaryFolder("file-region")
        defer { folder.remove() }
        let path = folder.path("media.bin")
        try Data(repeating: 7, count: fileBytes).write(to: URL(fileURLWithPath: path))
        let file = try NIOFileHandle(_deprecatedPath: path)
        let channel = EmbeddedChannel()
        let reads = ReadsInFlight()
        try channel.pipeline.syncOperations.addHandler(FileRegionReader { _, _, count, _, loop in
            reads.start(count: count, on: loop)
        })
        do { try body(file, channel, reads) } catch {
            try? file.close()
            throw error
        }
        try file.close()
        _ = try? channel.finish()
    }
}

/// Which writes completed, in order (their promises complete on the channel's loop).
private final class Completions: Sendable {
    private let list = Mutex<[String]>([])
    var names: [String] { list.withLock { $0 } }
    func add(_ name: String) { list.withLock { $0.append(name) } }
}

/// The chunk reads a ``FileRegionReader`` asked for, held until the test completes them.
final class ReadsInFlight {
    var pending: [EventLoopPromise<ByteBuffer>] = []
    var counts: [Int] = []

    func start(count: Int, on loop: any EventLoop) -> EventLoopFuture<ByteBuffer> {
        let promise = loop.makePromise(of: ByteBuffer.self)
        pending.append(promise)
        counts.append(count)
        return promise.futureResult
    }
}
