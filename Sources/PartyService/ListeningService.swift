import Logging
import ServiceLifecycle

/// One listening part of `tandem serve` (the party port, the admin port, the Syncplay gateway) as a
/// service: when the group runs it waits for the part before it (`after`: the lines the parts print
/// keep their order), starts listening, serves until the group shuts it down — gracefully, after the
/// parts that depend on it and the drain, or by cancellation when another part failed — and then
/// stops listening and closes what is left. A part that cannot start throws (one ``ServeError``), and
/// the group ends: the parts already listening are cancelled, and each stops its own.
struct ListeningService<Value: Sendable>: Service, CustomStringConvertible {
    let description: String
    /// Returns once the part before this one listens.
    let after: (@Sendable () async throws -> Void)?
    /// Set once this part listens: its port.
    let started = Readiness<Value>()
    let start: @Sendable () async throws -> Value
    let stop: @Sendable (Value) async -> Void
    let logger: Logger

    init(_ name: String, after: (@Sendable () async throws -> Void)? = nil, logger: Logger,
         start: @escaping @Sendable () async throws -> Value, stop: @escaping @Sendable (Value) async -> Void) {
        description = name
        self.after = after
        self.logger = logger
        self.start = start
        self.stop = stop
    }

    /// Returns once this part listens: what the part after it waits for.
    var listening: @Sendable () async throws -> Void {
        { [started] in _ = try await started.wait() }
    }

    func run() async throws {
        // Shut down or cancelled before its turn to start: nothing to stop.
        if let after {
            do { try await cancelWhenGracefulShutdown(after) } catch { return }
        }
        let value = try await start()
        started.set(value)
        // Returns at this part's graceful shutdown; throws when the group is cancelled: it stops either way.
        try? await gracefulShutdown()
        await stop(value)
        logger.info("stopped", metadata: ["part": "\(description)"])
    }
}
