import Foundation
import Testing
@testable import PartySimulator
import PartyKit

/// The whole party — server, host, three participants, real players decoding the bundled clip —
/// over simulated links. Each run takes well under a second of real time.
@Suite(.serialized) struct SimulationTests {
    static let clip: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("assets/party.mp4").path

    static func quiet(seed: UInt64 = 1) -> PartySimulation.Settings {
        .init(file: clip, participants: 3, latency: 0.0002, jitter: 0.0001, loss: 0, drift: 200e-6, duration: 20, seed: seed)
    }

    static func lossy(seed: UInt64 = 1) -> PartySimulation.Settings {
        .init(file: clip, participants: 3, latency: 0.05, jitter: 0.02, loss: 0.01, drift: 200e-6, duration: 20, seed: seed)
    }

    /// The numbers of a report, NaN-safe, for comparing runs.
    private func numbers(_ r: SimulationReport) -> [String] {
        var out = [r.skewP50Ms, r.skewP99Ms, r.skewMaxMs, r.spreadP99Ms, r.convergenceSeconds, r.commandSpreadMs,
                   r.maxRateCorrection].map { "\($0)" } + ["\(r.commands)"]
        for m in r.members {
            out += [m.name, "\(m.samples)", "\(m.skewP50Ms)", "\(m.skewP95Ms)", "\(m.skewP99Ms)", "\(m.skewMaxMs)",
                    "\(m.maxRateCorrection)", "\(m.seeks)"]
        }
        return out
    }

    @Test func bundledClipIsThere() {
        #expect(FileManager.default.fileExists(atPath: Self.clip), "missing \(Self.clip)")
    }

    @Test func quietLinkKeepsEveryoneWithinAMillisecondOrSo() async throws {
        let simulation = PartySimulation(settings: Self.quiet())
        let report = try await simulation.run()
        #expect(report.skewP99Ms < 1.5, "skew p99 \(report.skewP99Ms) ms")
        #expect(report.commandSpreadMs < 1, "command spread \(report.commandSpreadMs) ms")
        #expect(report.convergenceSeconds < 1.5, "convergence \(report.convergenceSeconds) s")
        #expect(report.convergenceSeconds > 0)
        #expect(report.skewP50Ms <= report.skewP99Ms && report.skewP99Ms <= report.skewMaxMs)
        // The script: creation, play, pause, play, seek, two rate changes.
        #expect(report.commands == 7)
        #expect(report.members.map(\.name) == ["host", "p1", "p2", "p3"])
        for member in report.members {
            #expect(member.samples > 1000, "\(member.name) was measured \(member.samples) times")
            #expect(member.maxRateCorrection <= SyncController.Tuning().maxCorrection)
            #expect(member.seeks >= 1)
            #expect(member.skewMaxMs < 5, "\(member.name) max skew \(member.skewMaxMs) ms")
        }
        // The late joiner is measured for less time than those who were there from the start.
        #expect(report.members[3].samples < report.members[1].samples)
        #expect(report.maxRateCorrection <= SyncController.Tuning().maxCorrection)
        #expect(simulation.samples.count == report.members.map(\.samples).reduce(0, +))
        #expect(simulation.samples.allSatisfy { $0.time >= 0 && $0.time <= 20 })
        #expect(simulation.log.contains { $0.contains("p3: joined party sim-party") })
    }

    @Test func sameSeedSameReport() async throws {
        let first = PartySimulation(settings: Self.quiet(seed: 1))
        let second = PartySimulation(settings: Self.quiet(seed: 1))
        let a = try await first.run()
        let b = try await second.run()
        #expect(numbers(a) == numbers(b))
        #expect(first.log == second.log)
        #expect(first.samples.count == second.samples.count)
        #expect(zip(first.samples, second.samples).allSatisfy { $0.time == $1.time && $0.member == $1.member && $0.skew == $1.skew })
        // And a different seed is a different run.
        let other = try await PartySimulation(settings: Self.quiet(seed: 2)).run()
        #expect(numbers(other) != numbers(a))
    }

    @Test func jitteryLossyLinkStaysWithinTenMilliseconds() async throws {
        let report = try await PartySimulation(settings: Self.lossy()).run()
        #expect(report.skewP99Ms < 10, "skew p99 \(report.skewP99Ms) ms")
        #expect(report.commands == 7)
        #expect(report.convergenceSeconds < 5)
        #expect(report.members.allSatisfy { $0.samples > 500 })
    }

    @Test func missingFileIsAnError() async {
        var settings = Self.quiet()
        settings.file = "/nonexistent/tandem-party.mp4"
        await #expect(throws: (any Error).self) {
            _ = try await PartySimulation(settings: settings).run()
        }
    }
}
