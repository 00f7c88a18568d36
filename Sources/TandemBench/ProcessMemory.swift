import TandemApp
import Foundation

/// This process's memory, from /proc (for benchmarks that read it from inside).
package enum ProcessMemory {
    /// Resident set size now, in bytes.
    package static func resident() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        return (Int(statm.split(separator: " ").dropFirst().first ?? "0") ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// VmHWM: the peak resident set size so far, in bytes.
    package static func peakResident() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib * 1024
    }
}
