import TandemApp
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU time and resident memory of one process, read from /proc: what `tandem bench load` charges
/// to the server (and to itself).
package struct LoadProcessUsage: Sendable, Equatable {
    /// User plus system CPU time so far, in seconds.
    package var cpuSeconds: Double
    /// VmRSS: resident memory now, in bytes.
    package var residentBytes: Int

    /// Reads `/proc/PID/stat` and `/proc/PID/status` (`pid` 0: this process).
    package static func read(pid: Int32) throws -> LoadProcessUsage {
        let folder = pid == 0 ? "/proc/self" : "/proc/\(pid)"
        guard let stat = try? String(contentsOfFile: folder + "/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: folder + "/status", encoding: .utf8) else {
            throw BenchError("cannot read \(folder)/stat: no process \(pid) (did the server exit?)")
        }
        guard let cpu = cpuSeconds(stat: stat, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK)))),
              let resident = residentBytes(status: status) else {
            throw BenchError("\(folder)/stat or status is not in the expected form")
        }
        return LoadProcessUsage(cpuSeconds: cpu, residentBytes: resident)
    }

    /// utime + stime (fields 14 and 15 of `/proc/PID/stat`, in clock ticks) in seconds. The command
    /// name (field 2) is in parentheses and may hold spaces and parentheses itself, so the fields are
    /// counted from the last `)`.
    package static func cpuSeconds(stat: String, ticksPerSecond: Double) -> Double? {
        guard ticksPerSecond > 0, let close = stat.lastIndex(of: ")") else { return nil }
        // After ")": field 3 (state) is the first; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    /// The `VmRSS:` line of `/proc/PID/status` (kB) in bytes.
    package static func residentBytes(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return kib * 1024
    }
}
