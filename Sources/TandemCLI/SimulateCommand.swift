import TandemApp
import ArgumentParser
import FFmpegKit
import Foundation
import PartyKit
import PartySimulator

struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "A server, a host and N participants in one process over simulated links with real players; measures skew.",
        discussion: """
        Scripted: everyone joins, the host plays at 1 s, one participant joins a third of the way in, then a pause, \
        a resume, a seek, and rate changes (1.25× then 1×). Skew is each participant's position minus the reference \
        timeline, sampled every 10 ms of simulated time. Same seed, same result.
        """
    )

    @Argument(help: "Media file (default: assets/party.mp4).") var file: String?
    @Option(help: "Participants besides the host.") var participants = 3
    @Option(help: "One-way latency (ms).") var latency = 50.0
    @Option(help: "Latency jitter, ± (ms).") var jitter = 20.0
    @Option(help: "Loss (percent of messages; seen as retransmission delay).") var loss = 1.0
    @Option(help: "Clock drift bound, ± (ppm), drawn per host.") var drift = 200.0
    @Option(help: "Simulated seconds.") var duration = 30.0
    @Option var seed: UInt64 = 1
    @Flag(help: "Take one participant's link down for 1.5 s, four fifths of the way in; it reconnects.") var disconnect = false
    @Option(help: "Write every skew sample as CSV.") var csv: String?
    @Option(help: "Write a plot of skew over time (SVG).") var plot: String?
    @Flag(help: "One JSON summary line.") var json = false
    @Flag(help: "Print the party's event log.") var verbose = false

    func validate() throws {
        guard participants >= 1, participants <= 64 else { throw ValidationError("--participants must be 1…64") }
        guard duration >= 5 else { throw ValidationError("--duration must be at least 5 s") }
        guard (0..<100).contains(loss), latency >= 0, jitter >= 0, drift >= 0 else { throw ValidationError("negative or impossible link settings") }
    }

    func run() async throws {
        FFmpegLog.configure()
        let media = file ?? defaultMedia()
        if let length = try? InputFile(url: media).info().durationSeconds, length < duration * 0.75 + 2 {
            printError("\(media): \(Int(length)) s is too short for a \(Int(duration)) s simulation (the script plays about \(Int(duration * 0.75 + 2)) s of it)")
            throw ExitCode.failure
        }
        var settings = PartySimulation.Settings(
            file: media, participants: participants, latency: latency / 1000, jitter: jitter / 1000, loss: loss / 100,
            drift: drift * 1e-6, duration: duration, seed: seed)
        settings.disconnect = disconnect
        let simulation = PartySimulation(settings: settings)
        let report: SimulationReport
        do {
            report = try await simulation.run()
        } catch let error as OpenError {
            printError(error.description)
            throw ExitCode.failure
        }
        if verbose { simulation.log.forEach { FileHandleOutput.standardError.write($0 + "\n") } }
        let names = report.members.map(\.name)
        if let csv {
            var text = "time,member,skew_ms,correction\n"
            for s in simulation.samples {
                text += String(format: "%.3f,%@,%.4f,%.6f\n", s.time, names[s.member], s.skew * 1000, s.correction)
            }
            try text.write(toFile: csv, atomically: true, encoding: .utf8)
        }
        if let plot {
            let title = String(format: "Tandem simulate: %d participants, %.0f±%.0f ms, %.1f%% loss, ±%.0f ppm, seed %llu",
                               participants, latency, jitter, loss, drift, seed)
            try SkewPlot.svg(simulation.samples, names: names, title: title).write(toFile: plot, atomically: true, encoding: .utf8)
        }
        if json {
            JSONLineWriter.standardOutput.emit(SimulateSummary(report: report, participants: participants, seed: seed))
        } else {
            print(String(format: "%-8@ %8@ %9@ %9@ %9@ %9@ %8@ %6@", "member", "samples", "p50 ms", "p95 ms", "p99 ms", "max ms", "max rate", "seeks"))
            for m in report.members {
                print(String(format: "%-8@ %8d %9.3f %9.3f %9.3f %9.3f %7.3f%% %6d", m.name, m.samples, m.skewP50Ms, m.skewP95Ms,
                             m.skewP99Ms, m.skewMaxMs, m.maxRateCorrection * 100, m.seeks))
            }
            print(String(format: "all: p50 %.3f ms, p99 %.3f ms, max %.3f ms; spread between members p99 %.3f ms", report.skewP50Ms,
                         report.skewP99Ms, report.skewMaxMs, report.spreadP99Ms))
            print(String(format: "join converged (|skew| < 10 ms for good) after %.3f s; commands applied within %.3f ms of each other (%.3f ms once clocks had 5 s); max correction %.3f%%",
                         report.convergenceSeconds, report.commandSpreadMs, report.settledCommandSpreadMs, report.maxRateCorrection * 100))
            print(String(format: "time pings: %.2f per member per second", Double(simulation.timePingsSent) / Double(participants + 1) / duration))
        }
    }

    private func defaultMedia() -> String {
        let candidates = ["assets/party.mp4", URL(fileURLWithPath: BenchCommand.selfPath).deletingLastPathComponent()
            .appendingPathComponent("../../../assets/party.mp4").standardized.path]
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? "assets/party.mp4"
    }
}
