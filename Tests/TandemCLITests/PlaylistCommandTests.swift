import Foundation
import Testing
import TestSupport

/// `tandem play A B C`, folders and mpv's time forms, run headless as a user would (the built
/// binary on the bundled clips, `--fast --json`).
@Suite struct PlaylistCommandTests {
    typealias Line = PlayEventLines.Line

    /// Runs `tandem play --fast --json ARGUMENTS`; exit status, the JSON lines and standard error.
    static func play(_ arguments: [String]) async throws -> (status: Int32, lines: [Line], stderr: String, stdout: String) {
        let result = try await PartyTLSCommandTests.run(["play", "--fast", "--json"] + arguments)
        let lines = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        return (result.status, lines, result.stderr, result.stdout)
    }

    static func opened(_ lines: [Line]) -> [String] {
        lines.filter { $0.event == "open" }.compactMap { $0.file.map { URL(fileURLWithPath: $0).lastPathComponent } }
    }

    @Test func filesPlayInTurnAndOneThatFailsIsNamedAndSkipped() async throws {
        let bad = Repository.asset("bad/not-media.mp4")
        let result = try await Self.play([Repository.asset("video-only.mp4"), bad, Repository.asset("odd-dims.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.opened(result.lines) == ["video-only.mp4", "odd-dims.mp4"])
        // One line names it (FFmpeg's own log line may come before).
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("tandem: ") } == ["tandem: \(bad): not a media file FFmpeg can read (invalid data while reading the header)"],
                "\(result.stderr)")
        #expect(result.lines.filter { $0.event == "ended" }.count == 2)
        #expect(result.lines.last?.event == "end")
        // The summary counts both: 90 frames of video-only.mp4 and 50 of odd-dims.mp4, 3 s + 2 s.
        let last = try #require(result.stdout.split(separator: "\n").last)
        let end = try JSONDecoder().decode(PlayEventLines.End.self, from: Data(last.utf8))
        #expect(end.videoFrames == 140)
        #expect(abs(end.durationSeconds - 5) < 0.1)
    }

    @Test func everyFileFailingIsExitOne() async throws {
        let result = try await Self.play([Repository.asset("bad/not-media.mp4"), Repository.asset("bad/empty.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("tandem: ") }.count == 2, "\(result.stderr)")
    }

    @Test func aFolderPlaysItsMediaFilesInNaturalOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-playcli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, asset) in [("ep10.mp4", "video-only.mp4"), ("ep9.webm", "odd-dims-420.webm"), ("notes.txt", "README.md")] {
            try FileManager.default.copyItem(atPath: Repository.asset(asset), toPath: folder.appendingPathComponent(name).path)
        }
        let result = try await Self.play([folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.opened(result.lines) == ["ep9.webm", "ep10.mp4"])
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try await Self.play([empty.path])
        #expect(none.status == 1)
        #expect(none.stderr == "tandem: \(empty.path): no media files in this folder\n")
    }

    @Test func shufflePlaysEveryFileOnce() async throws {
        let files = ["video-only.mp4", "odd-dims.mp4", "h264-aac.mp4"].map(Repository.asset)
        let result = try await Self.play(["--shuffle"] + files)
        #expect(Set(Self.opened(result.lines)) == Set(["video-only.mp4", "odd-dims.mp4", "h264-aac.mp4"]))
        #expect(Self.opened(result.lines).count == 3)
    }

    @Test(arguments: [
        (["--start", "-1"], 3.0, 1.0),         // 1 s before the end of 4 s
        (["--start", "0:01", "--end", "0:02.5"], 1.0, 1.5),
        (["--start", "50%", "--end", "-1"], 2.0, 1.0),
        (["--start", "+0:03"], 3.0, 1.0),
    ])
    func timesAsMPVTakesThem(arguments: [String], first: Double, played: Double) async throws {
        let result = try await Self.play(arguments + [Repository.asset("h264-aac.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let firstFrame = try #require(result.lines.first { $0.event == "firstFrame" }?.position, "\(result.lines.map(\.event))")
        #expect(abs(firstFrame - first) < 0.05)
        let end = try #require(result.lines.last)
        #expect(end.event == "end")
        #expect(abs((end.durationSeconds ?? 0) - played) < 0.1)
    }

    @Test(arguments: [["--start", "1:90"], ["--end", "soon"], ["--start", "0:03", "--end", "0:02"]])
    func badTimesAreRefusedNamingTheOption(arguments: [String]) async throws {
        let result = try await PartyTLSCommandTests.run(["play", "--fast"] + arguments + [Repository.asset("h264-aac.mp4")])
        #expect(result.status != 0)
        #expect(result.stderr.contains(arguments[arguments.count - 2]), "\(result.stderr)")
    }

    @Test func anEndBeforeTheStartOnceResolvedNamesTheFile() async throws {
        let file = Repository.asset("h264-aac.mp4")
        let result = try await Self.play(["--start", "-1", "--end", "0:01", file])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("tandem: \(file): --end"), "\(result.stderr)")
    }

    @Test func oneFilesOutputsRefuseSeveralFiles() async throws {
        let result = try await Self.play(["--framemd5", "/dev/null", Repository.asset("video-only.mp4"), Repository.asset("odd-dims.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("give one file"))
    }

    /// The same through the window (SDL's offscreen driver): one window plays the playlist, then closes.
    @Test func theWindowPlaysThePlaylistToItsEnd() async throws {
        let home = try TemporaryFolder("remember").url
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await RememberingCommandTests.run(
            ["play", "--json", "--start", "-0.5", Repository.asset("video-only.mp4"), Repository.asset("bad/empty.mp4"), Repository.asset("odd-dims.mp4")],
            environment: ["SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "XDG_STATE_HOME": home.path, "XDG_CONFIG_HOME": home.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(Self.opened(lines) == ["video-only.mp4", "odd-dims.mp4"])
        #expect(lines.filter { $0.event == "window" }.count == 1)
        #expect(result.stderr.contains("tandem: \(Repository.asset("bad/empty.mp4")): "))
        // No volume was kept: the window played at 100 %, and that is what is kept now.
        let kept = home.appendingPathComponent("tandem/volume")
        #expect(try String(contentsOf: kept, encoding: .utf8) == "volume=100\nmute=no\n")
        // The next run's --volume is kept for the run after it.
        _ = try await RememberingCommandTests.run(
            ["play", "--volume", "40", "--end", "0.2", Repository.asset("odd-dims.mp4")],
            environment: ["SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "XDG_STATE_HOME": home.path, "XDG_CONFIG_HOME": home.path])
        #expect(try String(contentsOf: kept, encoding: .utf8) == "volume=40\nmute=no\n")
    }
}
