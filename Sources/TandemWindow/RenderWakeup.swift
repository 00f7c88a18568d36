/// Wakes a window's render loop from any thread: a video sink calls ``wake()`` when a picture
/// arrives, a ticker when it is time to poll for input. Wakes that come while the loop is busy
/// collapse into one (the loop then looks at everything anyway).
public final class RenderWakeup: Sendable {
    let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Never blocks.
    public func wake() { continuation.yield() }

    /// Ends the stream: the loop waiting on it returns.
    func finish() { continuation.finish() }
}
