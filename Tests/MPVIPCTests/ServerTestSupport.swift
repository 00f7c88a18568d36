#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import MPVIPC
import TestSupport

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

/// Runs `body` with a started server on a temporary path, and always stops it.
func withServer(
    target: FakeTarget = FakeTarget(),
    maxLineLength: Int = IPCServer.defaultMaxLineLength,
    _ body: (IPCServer, String) async throws -> Void
) async throws {
    let path = temporarySocketPath("ipc-test")
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
