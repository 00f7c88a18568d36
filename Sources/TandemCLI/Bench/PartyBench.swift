import TandemBench
import TandemApp
import ArgumentParser
import Foundation
import MediaTime
import MPVIPC
import PartySimulator

extension BenchCommand {
    /// Measures real processes: samples each member's `time-pos` and `pause` through its mpv IPC
    /// socket and reports each one's skew against the first (the host), at a common instant on the
    /// machine's monotonic clock. A reply read between two instants is placed at their middle: the
    /// error is at most half that round trip (reported as `ipcHalfRTT`). Rounds are split into
    /// phases by ``SkewPhaseClassifier``: steady play, the settle window after each resume and after
    /// each seek, and pauses (where positions should be equal).
    struct Party: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Skew between party members running as separate processes, sampled through --ipc sockets.")

        @Option(name: .customLong("ipc"), help: "Sockets, host first.") var sockets: [String]
        @Option(help: "Seconds to sample.") var duration = 20.0
        @Option(help: "Seconds between the starts of two sampling rounds.") var interval = 0.1
        @Option(help: "Wait up to this long for the sockets to appear.") var wait = 20.0
        @Flag(help: "One JSON summary line at the end.") var json = false
        @Option(help: "Also write the JSON summary line to this file.") var summary: String?

        /// Samples this close to a pause, resume or jump are left out (see ``SkewPhaseClassifier``).
        static let transitionWindow = SkewPhaseClassifier.transitionWindow
        /// The phases where members play: their samples make the overall figures.
        static let playing: [PartySkewPhases.Kind] = [.steady, .afterResume, .afterSeek]

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
            let clock = MonotonicTimeSource()
            var classifier = SkewPhaseClassifier(members: probes.count)
            var phases = PartySkewPhases(members: probes.count)
            var halfRTT: [Double] = []
            var placement: [Double] = []
            var lastSkew: [Double?] = Array(repeating: nil, count: probes.count)
            let start = clock.now()
            var rounds = 0
            var nextPrint = 1.0
            while clock.now() - start < duration {
                let readings = try probes.map { try Self.read($0, halfRTT: &halfRTT, placement: &placement) }
                let now = clock.now()
                let phase = classifier.roundSampled(readings, at: now)
                let present = readings.compactMap { $0 }
                if present.count == probes.count {
                    phases.add(present, phase: phase)
                    if PartySkewPhases.Kind(phase)?.isPlaying == true {
                        for i in 1..<present.count { lastSkew[i] = PartySkewPhases.skew(present[i], host: present[0], playing: true) }
                    }
                }
                if now - start >= nextPrint, !json {
                    nextPrint += 1
                    let parts = (1..<probes.count).map { i in
                        lastSkew[i].map { String(format: "%@ %+.2f ms", name(i), $0 * 1000) } ?? "\(name(i)) –"
                    }
                    print(String(format: "%5.1f s  ", now - start) + parts.joined(separator: "   "))
                }
                // Rounds on a fixed schedule (a late round is not made up for).
                rounds = max(rounds + 1, Int(((clock.now() - start) / interval).rounded(.down)))
                let pause = start + Double(rounds) * interval - clock.now()
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            }
            try report(phases, classifier: classifier, halfRTT: halfRTT, placement: placement)
        }

        /// One member's position and pause, with the instant they hold for: the member's own
        /// (`tandem-time-sample`, one reading on the same monotonic clock, exact whatever the delays
        /// before and after its reply), or for a player without it (mpv, an older Tandem) `pause`,
        /// then `time-pos` placed at the middle of its round trip, off by up to half of it. `placement` gets, for
        /// each sample, how far that middle is from the member's own instant: the error the
        /// round-trip method would have made. Nil when the member has no position yet.
        static func read(_ probe: IPCProbe, halfRTT: inout [Double], placement: inout [Double]) throws -> SkewPhaseClassifier.Reading? {
            func middle(_ reply: (data: JSONValue?, sent: Double, received: Double)) -> Double {
                halfRTT.append((reply.received - reply.sent) / 2)
                return (reply.sent + reply.received) / 2
            }
            let sample = try probe.request(["get_property", "tandem-time-sample"])
            if case .object(let fields)? = sample.data, let position = fields["time-pos"]?.doubleValue,
               let paused = fields["pause"]?.boolValue, let at = fields["at"]?.doubleValue {
                placement.append(abs(middle(sample) - at))
                return SkewPhaseClassifier.Reading(position: position, instant: at, paused: paused)
            }
            guard let paused = try probe.request(["get_property", "pause"]).data?.boolValue else { return nil }
            let reply = try probe.request(["get_property", "time-pos"])
            guard let position = reply.data?.doubleValue else { return nil }
            return SkewPhaseClassifier.Reading(position: position, instant: middle(reply), paused: paused)
        }

        private func name(_ i: Int) -> String { URL(fileURLWithPath: sockets[i]).deletingPathExtension().lastPathComponent }

        private func report(_ phases: PartySkewPhases, classifier: SkewPhaseClassifier, halfRTT: [Double], placement: [Double]) throws {
            let all = SkewFigures(phases.all(in: Self.playing))
            let rttMedianMs = Percentile.median(of: halfRTT) * 1000
            let placementP95Ms = placement.isEmpty ? Double.nan : Percentile.nearestRank(of: placement, 0.95) * 1000
            let line = JSONLineWriter.line(PartyBenchPhaseSummary(
                overall: PartyBenchSummary(samples: all.samples, skewP50Ms: all.p50Ms, skewP95Ms: all.p95Ms,
                                           skewP99Ms: all.p99Ms, skewMaxMs: all.maxMs, ipcHalfRTTp50Ms: rttMedianMs,
                                           placementErrorP95Ms: placementP95Ms),
                steady: SkewFigures(phases.all(in: [.steady])), afterResume: SkewFigures(phases.all(in: [.afterResume])),
                afterSeek: SkewFigures(phases.all(in: [.afterSeek])), paused: SkewFigures(phases.all(in: [.paused])),
                hostPauses: classifier.hostPauses, hostResumes: classifier.hostResumes, hostSeeks: classifier.hostSeeks))
            if let summary {
                do { try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: summary)) } catch {
                    throw BenchError("\(summary): cannot write the summary: \(error)")
                }
            }
            if json {
                FileHandleOutput.standardOutput.write(line + "\n")
                return
            }
            print("member    samples   p50 ms   p95 ms   p99 ms   max ms   (|skew| against \(name(0)))")
            for i in 1..<sockets.count { row(name(i), width: 9, SkewFigures(phases.member(i, in: Self.playing))) }
            if placement.isEmpty {
                print(String(format: "measurement error ≤ half an IPC round trip: p50 %.3f ms", rttMedianMs))
            } else {
                print(String(format: "positions at the members' own instants (tandem-time-sample); a round trip's middle "
                              + "would have been off by p95 %.3f ms (half round trip p50 %.3f ms)", placementP95Ms, rttMedianMs))
            }
            print(String(format: "phases (%d pauses, %d resumes, %d seeks on %@; %.1f s left out after each change, then %.0f s settling):",
                         classifier.hostPauses, classifier.hostResumes, classifier.hostSeeks, name(0),
                         SkewPhaseClassifier.transitionWindow, SkewPhaseClassifier.settleWindow))
            let titles: [(PartySkewPhases.Kind, String)] = [
                (.steady, "steady"), (.afterResume, "resume"), (.afterSeek, "seek"), (.paused, "paused Δ")]
            for (kind, title) in titles {
                for i in 1..<sockets.count { row("\(title) \(name(i))", width: 16, SkewFigures(phases.member(i, in: [kind]))) }
            }
        }

        private func row(_ title: String, width: Int, _ f: SkewFigures) {
            let padded = title + String(repeating: " ", count: max(0, width - title.count))
            print(padded + String(format: " %7d %8.3f %8.3f %8.3f %8.3f", f.samples, f.p50Ms, f.p95Ms, f.p99Ms, f.maxMs))
        }
    }
}
