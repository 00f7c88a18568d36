import TandemApp
import Foundation
import PlayerCore
#if canImport(Glibc)
import Glibc
#endif

/// A command run to completion with its resource usage (`wait4`): what benchmarks compare.
package struct ChildProcess {
    package struct Usage {
        package var wallSeconds: Double
        package var cpuSeconds: Double
        /// Peak resident set size in bytes.
        package var peakRSS: Int
        package var exitCode: Int32
        package var stdout: String
    }

    /// This executable (`tandem`), to run its own subcommands as children.
    package static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `arguments` (looked up on PATH), capturing stdout, discarding stderr.
    package static func run(_ arguments: [String]) throws -> Usage {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let out = Pipe()
        posix_spawn_file_actions_adddup2(&actions, out.fileHandleForWriting.fileDescriptor, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let clock = MonotonicTimeSource()
        let start = clock.now()
        let code = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        guard code == 0 else { throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(code)))") }
        try out.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let wall = clock.now() - start
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Usage(wallSeconds: wall, cpuSeconds: cpu, peakRSS: Int(usage.ru_maxrss) * 1024, exitCode: exit,
                     stdout: String(decoding: data, as: UTF8.self))
    }
}

package struct BenchError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
