import TandemBench
import TandemApp
import ArgumentParser
import Foundation
import PartySimulator
import PlayerCore
import FFmpegKit

/// `tandem bench …`: Tandem against a reference tool on the same input in the same invocation,
/// run alternately, reported as ratios (never bare times).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks against ffmpeg and mpv (ratios of runs made alternately in one invocation).",
        subcommands: [Decode.self, RealTime.self, FirstFrame.self, OpenClose.self, Party.self, Stories.self, StoriesMemory.self,
                      PercentileOfInput.self, Link.self, Burn.self, FirstSync.self, Load.self]
    )

    /// This very executable, for runs in a fresh process.
    static var selfPath: String { ChildProcess.selfPath }

    /// `tandem play ARGUMENTS` in a fresh process, reading no config file: a user's defaults
    /// (`speed=2`, `loop-file`, a bad line) would change what is measured, as `mpv --no-config`
    /// keeps the reference's out.
    static func play(_ arguments: String...) -> [String] {
        [selfPath, "play", "--no-config"] + arguments
    }

    /// The nearest-rank median (``Percentile``), as every figure in BENCHMARKS.md.
    static func median(_ values: [Double]) -> Double {
        Percentile.median(of: values)
    }

    static func report(_ title: String, _ rows: [(String, Double, Double)]) {
        print("## \(title)")
        print("| measure | tandem | reference | ratio |")
        print("|---|---|---|---|")
        for (name, mine, theirs) in rows {
            print(String(format: "| %@ | %.4g | %.4g | %.3f |", name, mine, theirs, mine / theirs))
        }
    }

    static func check(_ usage: ChildProcess.Usage, _ what: String) throws {
        if usage.exitCode != 0 { throw BenchError("\(what) exited with \(usage.exitCode)") }
    }

    /// Runs `mine` and `reference` alternately `runs` times and reports the medians of wall time,
    /// CPU time and peak memory as ratios.
    static func alternate(_ title: String, runs: Int, mine: [String], reference: [String]) throws {
        var a: [ChildProcess.Usage] = [], b: [ChildProcess.Usage] = []
        for _ in 0..<runs {
            let m = try ChildProcess.run(mine)
            try check(m, "tandem")
            let r = try ChildProcess.run(reference)
            try check(r, reference[0])
            a.append(m)
            b.append(r)
        }
        let mib = { (u: ChildProcess.Usage) in Double(u.peakRSS) / 1048576 }
        report("\(title) (\(runs) alternate runs, medians)", [
            ("wall s", median(a.map(\.wallSeconds)), median(b.map(\.wallSeconds))),
            ("cpu s", median(a.map(\.cpuSeconds)), median(b.map(\.cpuSeconds))),
            ("peak RSS MiB", median(a.map(mib)), median(b.map(mib))),
        ])
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "`tandem play --fast` against `ffmpeg -threads 0 -i FILE -f null -`: wall time and peak memory.")
        @Argument var file: String
        @Option var runs = 5

        func run() throws {
            try alternate("decode \(file)", runs: runs, mine: BenchCommand.play("--fast", file),
                          reference: ["ffmpeg", "-v", "quiet", "-threads", "0", "-i", file, "-f", "null", "-"])
        }
    }

    struct RealTime: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "`tandem play --headless` against `mpv --vo=null --ao=null`: CPU time and peak memory of real-time playback.")
        @Argument var file: String
        @Option var runs = 1

        func run() throws {
            try alternate("real-time headless \(file)", runs: runs, mine: BenchCommand.play("--headless", file),
                          reference: ["mpv", "--no-config", "--really-quiet", "--vo=null", "--ao=null", file])
        }
    }

    struct FirstFrame: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open-to-first-frame in a fresh process, against `ffmpeg -i FILE -frames:v 1 -f null -` (whole process).")
        @Argument var file: String
        @Option var runs = 10

        func run() throws {
            var mine: [Double] = [], mineProcess: [Double] = [], theirs: [Double] = []
            for _ in 0..<runs {
                let a = try ChildProcess.run(BenchCommand.play("--headless", "--json", "--end", "0.2", file))
                try check(a, "tandem")
                guard let line = a.stdout.split(separator: "\n").first(where: { $0.contains("\"firstFrame\"") }),
                      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let seconds = object["sinceStartSeconds"] as? Double else { throw BenchError("no firstFrame event") }
                mine.append(seconds)
                // The same, whole process, with Tandem stopping right after its first frame.
                let p = try ChildProcess.run(BenchCommand.play("--fast", "--end", "0.001", file))
                try check(p, "tandem")
                mineProcess.append(p.wallSeconds)
                let b = try ChildProcess.run(["ffmpeg", "-v", "quiet", "-i", file, "-frames:v", "1", "-f", "null", "-"])
                try check(b, "ffmpeg")
                theirs.append(b.wallSeconds)
            }
            report("open to first frame \(file) (\(runs) runs, medians, seconds)", [
                ("in-process open→first frame", median(mine), median(theirs)),
                ("whole process, first frame only", median(mineProcess), median(theirs)),
            ])
        }
    }

    struct OpenClose: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Opens, prerolls and closes FILE COUNT times in one process; prints resident memory before and after.")
        @Argument var file: String
        @Option var count = 1000
        @Option(help: "Warm-up iterations before the first memory reading.") var warmup = 20

        func run() async throws {
            FFmpegLog.configure()
            for i in 0..<(warmup + count) {
                if i == warmup { print("rss_before_bytes \(ProcessMemory.resident())") }
                let player = try await Player.open(file)
                await player.seek(to: 0.5)
                await player.close()
            }
            print("rss_after_bytes \(ProcessMemory.resident())")
        }
    }
}
