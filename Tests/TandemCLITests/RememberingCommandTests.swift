import Foundation
import Testing
import TestSupport
@testable import TandemApp

/// Resume positions and the config file through the built `tandem play`, with their own
/// XDG_STATE_HOME and XDG_CONFIG_HOME.
@Suite struct RememberingCommandTests {
    /// Runs `tandem ARGUMENTS` with `environment` added; exit status, stdout and stderr.
    static func run(_ arguments: [String], environment: [String: String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try await ChildProcess.runTandem(arguments, adding: environment)
        return (result.status, result.standardOutput, result.standardError)
    }

    static func firstFrame(_ stdout: String) -> Double? {
        stdout.split(separator: "\n").compactMap { try? JSONDecoder().decode(PlayEventLines.Line.self, from: Data($0.utf8)) }
            .first { $0.event == "firstFrame" }?.position
    }

    @Test func shiftQsPositionIsWhereTheNextRunStartsOnce() async throws {
        let home = try TemporaryFolder("remember").url
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path]
        let socket = home.appendingPathComponent("s.sock").path
        let file = Repository.asset("video-only.mp4")
        // Headless with --save-position-on-quit: seek to 1.5 s, pause, quit over IPC.
        let process = try ChildProcess.tandem(["play", "--headless", "--save-position-on-quit", "--loop-file", "--ipc", socket, file],
                                              adding: environment, standardOutput: .discard, standardError: .discard)
        let client = try await SocketClient.connect(path: socket)
        #expect(try await PlaylistIPCTests.awaitFile(lasting: 3, client))
        #expect(try await client.request(#"{"command":["set_property","pause",true]}"#).contains("success"))
        #expect(try await client.request(#"{"command":["seek",1.5,"absolute"]}"#).contains("success"))
        #expect(try await client.request(#"{"command":["quit"]}"#).contains("success"))
        #expect(try await process.exit(within: 60) == .exited(0))

        let resumed = try await Self.run(["play", "--fast", "--json", file], environment: environment)
        #expect(resumed.status == 0)
        #expect(abs((Self.firstFrame(resumed.stdout) ?? 0) - 1.5) < 0.05, "\(resumed.stdout)")
        #expect(resumed.stderr.contains("resuming at 00:00:01"), "\(resumed.stderr)")
        let again = try await Self.run(["play", "--fast", "--json", file], environment: environment)
        #expect(Self.firstFrame(again.stdout) == 0)  // the entry is used once
    }

    /// Ctrl-C in headless `play --save-position-on-quit` quits as `q` does and remembers where the
    /// file was, as mpv saves on a signal (it used to die at once, remembering nothing).
    @Test func sigintInHeadlessPlayRemembersThePosition() async throws {
        let home = try TemporaryFolder("remember").url
        defer { try? FileManager.default.removeItem(at: home) }
        let laterDir = home.appendingPathComponent("later").path
        let file = Repository.asset("video-only.mp4")
        let process = try ChildProcess.tandem(["play", "--headless", "--json", "--no-config", "--save-position-on-quit", "--loop-file",
                                               "--watch-later-dir", laterDir, file], standardError: .discard)
        // Wait on the output: the interrupt goes once the process says it shows pictures (60 s: a
        // failure bound only; the process is killed when the test ends).
        try await process.output(containing: #""event":"firstFrame""#, within: 60)
        process.interrupt()
        let ended = try await process.exit(within: 60)
        let text = process.standardOutput
        // It dies of the signal once done (a shell loop running it stops too), after saving.
        #expect(ended == .signalled(SIGINT), "\(ended)")
        #expect(text.contains(#""event":"end""#), "the end summary after the interrupt: \(text)")
        let saved = WatchLater(directory: laterDir).position(for: file)
        #expect(saved.map { $0 >= 0 && $0 < 3.5 } == true, "saved: \(String(describing: saved))")
    }

    @Test func theConfigFileGivesDefaultsTheCommandLineOverrides() async throws {
        let home = try TemporaryFolder("remember").url
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("config/tandem")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let conf = folder.appendingPathComponent("tandem.conf")
        try "# mine\nstart=0:02\nno-resume-playback\n".write(to: conf, atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": home.appendingPathComponent("state").path]
        let file = Repository.asset("h264-aac.mp4")
        let configured = try await Self.run(["play", "--fast", "--json", file], environment: environment)
        #expect(configured.status == 0, "\(configured.stderr)")
        #expect(Self.firstFrame(configured.stdout) == 2)
        let started = try await Self.run(["play", "--fast", "--json", "--start", "1", file], environment: environment)
        #expect(Self.firstFrame(started.stdout) == 1, "exit \(started.status): \(started.stderr)\n\(started.stdout.prefix(600))")
        let bare = try await Self.run(["play", "--fast", "--json", "--no-config", file], environment: environment)
        #expect(Self.firstFrame(bare.stdout) == 0, "exit \(bare.status): \(bare.stderr)\n\(bare.stdout.prefix(600))")

        try "start=0:02\nspeed\n".write(to: conf, atomically: true, encoding: .utf8)
        let bad = try await Self.run(["play", "--fast", file], environment: environment)
        #expect(bad.status == 1)
        #expect(bad.stderr == "tandem: \(conf.path):2: speed needs a value (speed=VALUE)\n")
        try "bogus=1\n".write(to: conf, atomically: true, encoding: .utf8)
        let unknown = try await Self.run(["play", "--fast", file], environment: environment)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("tandem: \(conf.path):1: "), "\(unknown.stderr)")
    }
}
