import Foundation

/// Runs blocking work — a C library call that waits on the network (libnatpmp, libminiupnpc), a
/// socket read with a timeout — on a thread of its own, never on an event loop or a thread of the
/// cooperative pool (which has as many threads as cores: one blocked call there stalls the party).
/// Port mapping makes a handful of such calls in a party's life, so a thread each is cheap.
enum BlockingCall {
    /// Stack size of each thread: the calls keep a few small buffers.
    static let stackSize = 512 << 10

    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "tandem.port-mapping"
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
