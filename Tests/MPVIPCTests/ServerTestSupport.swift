#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import MPVIPC

/// A fresh socket path in /tmp (short enough for `sockaddr_un`).
func temporarySocketPath() -> String {
    "/tmp/tandem-ipc-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
}

func fileExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

/// A logger that keeps test output quiet.
let quietLogger: Logger = {
    var logger = Logger(label: "tandem.ipc.test")
    logger.logLevel = .critical
    return logger
}()

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return await condition()
}

/// Runs `body` with a started server on a temporary path, and always stops it.
func withServer(
    target: FakeTarget = FakeTarget(),
    maxLineLength: Int = IPCServer.defaultMaxLineLength,
    _ body: (IPCServer, String) async throws -> Void
) async throws {
    let path = temporarySocketPath()
    let server = IPCServer(socketPath: path, target: target, maxLineLength: maxLineLength, logger: quietLogger)
    try await server.start()
    do {
        try await body(server, path)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
