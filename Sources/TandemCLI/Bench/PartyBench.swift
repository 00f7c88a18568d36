import ArgumentParser
import Foundation
import PartySimulator

extension BenchCommand {
    /// Measures real processes: samples each member's `time-pos` through its mpv IPC socket and
    /// reports each one's skew against the first (the host), at a common instant on the machine's
    /// monotonic clock. A reply read between two instants is placed at their middle: the error is
    /// at most half that round trip (reported as `ipcHalfRTT`).
    struct Party: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Skew between party members running as separate processes, sampled through --ipc sockets.")

        @Option(name: .customLong("ipc"), help: "Sockets, host first.") var sockets: [String]
        @Option(help: "Seconds to sample.") var duration = 20.0
        @Option(help: "Seconds between samples.") var interval = 0.1
        @Option(help: "Wait up to this long for the sockets to appear.") var wait = 20.0
        @Flag(help: "One JSON summary line at the end.") var json = false

        /// Samples this close to a pause, resume or jump are left out: positions there are
        /// discontinuous by design and say nothing about sync.
        static let transitionWindow = 0.5

        func run() throws {
            guard sockets.count >= 2 else { throw ValidationError("give at least two --ipc sockets") }
            let deadline = Date().addingTimeInterval(wait)
            var probes: [IPCProbe] = []
            for path in sockets {
                while true {
                    if let probe = try? IPCProbe(path: path) { probes.append(probe); break }
                    if Date() > deadline { throw BenchError("\(path): no IPC socket after \(Int(wait)) s") }
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            var skews = Array(repeating: [Double](), count: probes.count)
            var halfRTT: [Double] = []
            var lastState: [(pos: Double, t: Double, paused: Bool)?] = Array(repeating: nil, count: probes.count)
            var quietUntil = 0.0
            let start = Date()
            var nextPrint = 1.0
            while Date().timeIntervalSince(start) < duration {
                var positions: [(pos: Double, t: Double)] = []
                var transition = false
                for (i, probe) in probes.enumerated() {
                    guard let paused = try probe.request(["get_property", "pause"]).data?.boolValue else { continue }
                    let reply = try probe.request(["get_property", "time-pos"])
                    guard let pos = reply.data?.doubleValue else { continue }
                    let t = (reply.sent + reply.received) / 2
                    halfRTT.append((reply.received - reply.sent) / 2)
                    if let last = lastState[i] {
                        let expected = last.paused ? last.pos : last.pos + (t - last.t)
                        if paused != last.paused || abs(pos - expected) > 0.25 { transition = true }
                    }
                    lastState[i] = (pos, t, paused)
                    positions.append(paused ? (pos, .nan) : (pos, t))
                }
                let now = Date().timeIntervalSince(start)
                if transition { quietUntil = now + Self.transitionWindow }
                if positions.count == probes.count, now >= quietUntil, positions.allSatisfy({ !$0.t.isNaN }) {
                    // Each position carried to the host's instant at 1× (rate changes make this slightly off for ms).
                    let reference = positions[0]
                    for i in 1..<positions.count {
                        let skew = positions[i].pos - (reference.pos + (positions[i].t - reference.t))
                        skews[i].append(skew)
                    }
                }
                if now >= nextPrint, !json {
                    nextPrint += 1
                    let parts = (1..<probes.count).map { i in
                        skews[i].last.map { String(format: "%@ %+.2f ms", name(i), $0 * 1000) } ?? "\(name(i)) –"
                    }
                    print(String(format: "%5.1f s  ", now) + parts.joined(separator: "   "))
                }
                Thread.sleep(forTimeInterval: interval)
            }
            report(skews, halfRTT: halfRTT)
        }

        private func name(_ i: Int) -> String { URL(fileURLWithPath: sockets[i]).deletingPathExtension().lastPathComponent }

        private func report(_ skews: [[Double]], halfRTT: [Double]) {
            /// |skew| in ms, nearest-rank percentile (as `simulate` and BENCHMARKS.md).
            func pct(_ v: [Double], _ p: Double) -> Double { Percentile.nearestRank(of: v.map { abs($0) * 1000 }, p) }
            let all = skews.dropFirst().flatMap { $0 }
            let rttMedianMs = Percentile.median(of: halfRTT) * 1000
            if json {
                JSONLineWriter.standardOutput.emit(PartyBenchSummary(
                    samples: all.count, skewP50Ms: pct(all, 0.5), skewP95Ms: pct(all, 0.95), skewP99Ms: pct(all, 0.99),
                    skewMaxMs: pct(all, 1), ipcHalfRTTp50Ms: rttMedianMs))
                return
            }
            print("member    samples   p50 ms   p95 ms   p99 ms   max ms   (|skew| against \(name(0)))")
            for i in 1..<skews.count {
                print(String(format: "%-9@ %7d %8.3f %8.3f %8.3f %8.3f", name(i), skews[i].count, pct(skews[i], 0.5),
                             pct(skews[i], 0.95), pct(skews[i], 0.99), pct(skews[i], 1)))
            }
            print(String(format: "measurement error ≤ half an IPC round trip: p50 %.3f ms", rttMedianMs))
        }
    }
}
