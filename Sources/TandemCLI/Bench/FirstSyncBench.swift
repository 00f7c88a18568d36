import TandemBench
import TandemApp
import ArgumentParser
import Foundation
import MediaTime
import MPVIPC

extension BenchCommand {
    /// `tandem bench first-sync`: how long a joining member takes to show the party's frame. Started
    /// together with a guest, it polls the host's and the guest's `tandem-time-sample` over IPC and
    /// reports the seconds from its own start until the guest has played in step with the host
    /// (both playing, |skew| within `--within-ms`) for `--hold` readings in a row. A script runs it
    /// for a streaming guest and for one with a local copy and reports the ratio.
    struct FirstSync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "first-sync",
            abstract: "Seconds until a joining member plays in step with the host, read through --ipc sockets.")

        @Option(name: .customLong("ipc"), help: "Two sockets: the host's, then the joining member's.") var sockets: [String]
        @Option(name: .customLong("within-ms"), help: "In step: |skew| at most this many ms.") var withinMs = 5.0
        @Option(help: "Readings in a row that must be in step (one lucky crossing is not sync).") var hold = 3
        @Option(help: "Seconds between two readings.") var interval = 0.01
        @Option(help: "Give up after this many seconds.") var timeout = 60.0
        @Flag(help: "One JSON line instead of text.") var json = false

        func validate() throws {
            guard sockets.count == 2 else { throw ValidationError("give two --ipc sockets: the host's, then the guest's") }
            guard withinMs > 0, hold >= 1, interval > 0, timeout > 0 else {
                throw ValidationError("--within-ms, --hold, --interval and --timeout must be positive")
            }
        }

        func run() throws {
            let clock = MonotonicTimeSource()
            let start = clock.now()
            var probes: [IPCProbe] = []
            for path in sockets {
                while true {
                    if let probe = try? IPCProbe(path: path) { probes.append(probe); break }
                    if clock.now() - start > timeout { throw BenchError("\(path): no IPC socket after \(Int(timeout)) s") }
                    Thread.sleep(forTimeInterval: interval)
                }
            }
            var inStep = 0
            while clock.now() - start < timeout {
                if let host = try Self.sample(probes[0]), let guest = try Self.sample(probes[1]),
                   !host.paused, !guest.paused {
                    let skew = guest.position - (host.position + (guest.at - host.at))
                    inStep = abs(skew) * 1000 <= withinMs ? inStep + 1 : 0
                    if inStep >= hold {
                        let seconds = guest.at - start
                        if json {
                            FileHandleOutput.standardOutput.write(JSONLineWriter.line(FirstSyncResult(seconds: seconds)) + "\n")
                        } else {
                            print(String(format: "in step (|skew| ≤ %g ms, %d readings) %.3f s after the start", withinMs, hold, seconds))
                        }
                        return
                    }
                } else {
                    inStep = 0
                }
                Thread.sleep(forTimeInterval: interval)
            }
            throw BenchError("the guest was not in step with the host within \(Int(timeout)) s")
        }

        /// A member's position with its own instant, and whether it plays; nil before it has a player.
        static func sample(_ probe: IPCProbe) throws -> (position: Double, at: Double, paused: Bool)? {
            guard case .object(let fields)? = try probe.request(["get_property", "tandem-time-sample"]).data,
                  let position = fields["time-pos"]?.doubleValue, let paused = fields["pause"]?.boolValue,
                  let at = fields["at"]?.doubleValue else { return nil }
            return (position, at, paused)
        }
    }

    /// `bench first-sync --json`: `{"event":"firstSync","seconds":…}`.
    struct FirstSyncResult: Encodable {
        var seconds: Double
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: EventField.self)
            try c.encode(event: "firstSync")
            try c.encode(number: seconds, forKey: "seconds")
        }
    }
}
