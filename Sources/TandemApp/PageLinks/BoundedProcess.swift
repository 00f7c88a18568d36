import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A helper program run to its end with a time limit, awaited without blocking the cooperative pool:
/// one thread of its own spawns it (`posix_spawnp`, looked up on PATH), reads its standard output and
/// error as they come (`poll`, so neither pipe fills while the other is read), and reaps it.
///
/// Past the time limit, or when the awaiting task is cancelled, the child is killed (SIGKILL) and
/// reaped, and its pipes are closed at once: a grandchild still holding them (a script that runs
/// `sleep`) keeps nothing waiting. The child stays in Tandem's process group, so Ctrl-C on the
/// terminal reaches it too.
package enum BoundedProcess {
    /// Largest standard output kept: `yt-dlp -J` of a long playlist runs to a few MiB; far more is
    /// not an answer worth reading.
    package static let outputLimit = 64 << 20
    /// Largest standard error kept: its last lines say what went wrong.
    package static let errorLimit = 256 << 10
    /// Stack of the thread that drives one run: a read buffer and a few descriptors.
    static let stackSize = 512 << 10
    /// Bytes read at a time: what a pipe holds (64 KiB on Linux), so one read empties it.
    static let readSize = 64 << 10

    /// A run to its end.
    package struct Outcome: Sendable {
        /// The exit status (128 + the signal when a signal ended it, as a shell says).
        package var status: Int32
        package var standardOutput: [UInt8]
        package var standardError: [UInt8]
    }

    package enum Failure: Error, Sendable, Equatable {
        /// No such program on PATH.
        case notFound
        /// It could not be started (the reason in words).
        case cannotStart(String)
        /// It ran past the time limit and was killed.
        case timedOut
        /// The awaiting task was cancelled; the child was killed.
        case cancelled
        /// It printed more than ``outputLimit`` and was killed.
        case tooMuchOutput
    }

    /// Runs `executable` with `arguments` (standard input /dev/null, this process's environment
    /// with `environment` set over it) for at most `timeout` seconds.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                            timeout: Double) async throws(Failure) -> Outcome {
        let cancel = CancelPipe()
        guard let cancel else { throw .cannotStart("pipe: \(String(cString: strerror(errno)))") }
        let result: Result<Outcome, Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: drive(executable, arguments, environment: environment, timeout: timeout, cancel: cancel))
                }
                thread.name = "tandem.process"
                thread.stackSize = stackSize
                thread.start()
            }
        } onCancel: {
            cancel.fire()
        }
        return try result.get()
    }

    /// The run, on the calling (own) thread.
    private static func drive(_ executable: String, _ arguments: [String], environment: [String: String], timeout: Double,
                              cancel: CancelPipe) -> Result<Outcome, Failure> {
        defer { cancel.close() }
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard closeOnExecPipe(&output) else { return .failure(.cannotStart("pipe: \(String(cString: strerror(errno)))")) }
        guard closeOnExecPipe(&errors) else {
            output.forEach { _ = Glibc.close($0) }
            return .failure(.cannotStart("pipe: \(String(cString: strerror(errno)))"))
        }
        let spawned = spawn(executable, arguments, environment: environment, output: output[1], errors: errors[1])
        _ = Glibc.close(output[1])
        _ = Glibc.close(errors[1])
        guard case .success(let pid) = spawned else {
            _ = Glibc.close(output[0])
            _ = Glibc.close(errors[0])
            if case .failure(let failure) = spawned { return .failure(failure) }
            return .failure(.cannotStart(executable))
        }
        var collected: [[UInt8]] = [[], []]
        var open = [output[0], errors[0]]
        let deadline = ContinuousClock.now + .seconds(timeout)
        var failure: Failure?
        var buffer = [UInt8](repeating: 0, count: readSize)
        while open.contains(where: { $0 >= 0 }) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { failure = .timedOut; break }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + [pollfd(fd: cancel.readEnd, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(min(Double(Int32.max), (Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18) * 1000 + 1))
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                failure = .cannotStart("poll: \(String(cString: strerror(errno)))")
                break
            }
            if fds[2].revents != 0 { failure = .cancelled; break }
            for stream in 0..<2 where open[stream] >= 0 && fds[stream].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(open[stream], $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    _ = Glibc.close(open[stream])
                    open[stream] = -1
                    continue
                }
                collected[stream] += buffer[0..<n]
                if stream == 1, collected[1].count > errorLimit { collected[1].removeFirst(collected[1].count - errorLimit) }
            }
            if collected[0].count > outputLimit { failure = .tooMuchOutput; break }
        }
        if failure != nil { _ = kill(pid, SIGKILL) }
        open.filter { $0 >= 0 }.forEach { _ = Glibc.close($0) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let failure { return .failure(failure) }
        let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return .success(Outcome(status: exit, standardOutput: collected[0], standardError: collected[1]))
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Swift's Glibc module does not show.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Starts the child with its standard output and error on `output` and `errors`.
    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                              output: Int32, errors: Int32) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        // Nothing else of Tandem's (sockets, other children's pipes) reaches the child.
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }
        // Signals at their defaults and none blocked: Tandem ignores SIGINT while its own handlers
        // run, and a child must not inherit that.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        switch code {
        case 0: return .success(pid)
        case ENOENT: return .failure(.notFound)
        default: return .failure(.cannotStart(String(cString: strerror(code))))
        }
    }
}

/// A pipe that wakes a run's `poll` when its task is cancelled. Written at most once, and never
/// after the run closed it (a descriptor number may be reused by then).
private final class CancelPipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Mutex<Int32>

    init?() {
        var fds: [Int32] = [-1, -1]
        guard closeOnExecPipe(&fds) else { return nil }
        readEnd = fds[0]
        writeEnd = Mutex(fds[1])
    }

    func fire() {
        writeEnd.withLock { fd in
            guard fd >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(fd, &byte, 1)
            _ = Glibc.close(fd)
            fd = -1
        }
    }

    func close() {
        writeEnd.withLock { fd in
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }
        _ = Glibc.close(readEnd)
    }
}

/// A pipe whose ends a spawned child does not inherit (Glibc's `pipe2` is not visible to Swift).
private func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    return true
}
