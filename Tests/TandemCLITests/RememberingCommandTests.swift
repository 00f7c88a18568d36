import Foundation
import Testing
@testable import TandemCLI
@testable import TandemApp
@testable import TandemBench

/// Resume positions and the config file through the built `tandem play`, with their own
/// XDG_STATE_HOME and XDG_CONFIG_HOME.
@Suite struct RememberingCommandTests {
    /// Runs `tandem ARGUMENTS` with `environment` added; exit status, stdout and stderr.
    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try URLOpenErrorTests.binary()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), try String(contentsOf: errors, encoding: .utf8))
    }

    static func firstFrame(_ stdout: String) -> Double? {
        stdout.split(separator: "\n").compactMap { try? JSONDecoder().decode(PlayEventLinesTests.Line.self, from: Data($0.utf8)) }
            .first { $0.event == "firstFrame" }?.position
    }

    @Test func shiftQsPositionIsWhereTheNextRunStartsOnce() throws {
        let home = try RememberingTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_STATE_HOME": home.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path]
        let socket = home.appendingPathComponent("s.sock").path
        let file = TestAssets.path("video-only.mp4")
        // Headless with --save-position-on-quit: seek to 1.5 s, pause, quit over IPC.
        let process = Process()
        process.executableURL = try URLOpenErrorTests.binary()
        process.arguments = ["play", "--headless", "--save-position-on-quit", "--loop-file", "--ipc", socket, file]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let client = try PlaylistIPCTests.Client(path: socket)
        #expect(client.awaitFile(lasting: 3))
        #expect(client.request(#"{"command":["set_property","pause",true]}"#).contains("success"))
        #expect(client.request(#"{"command":["seek",1.5,"absolute"]}"#).contains("success"))
        #expect(client.request(#"{"command":["quit"]}"#).contains("success"))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let resumed = try Self.run(["play", "--fast", "--json", file], environment: environment)
        #expect(resumed.status == 0)
        #expect(abs((Self.firstFrame(resumed.stdout) ?? 0) - 1.5) < 0.05, "\(resumed.stdout)")
        #expect(resumed.stderr.contains("resuming at 00:00:01"), "\(resumed.stderr)")
        let again = try Self.run(["play", "--fast", "--json", file], environment: environment)
        #expect(Self.firstFrame(again.stdout) == 0)  // the entry is used once
    }

    /// Ctrl-C in headless `play --save-position-on-quit` quits as `q` does and remembers where the
    /// file was, as mpv saves on a signal (it used to die at once, remembering nothing).
    @Test func sigintInHeadlessPlayRemembersThePosition() throws {
        let home = try RememberingTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let laterDir = home.appendingPathComponent("later").path
        let file = TestAssets.path("video-only.mp4")
        let process = Process()
        process.executableURL = try URLOpenErrorTests.binary()
        process.arguments = ["play", "--headless", "--json", "--no-config", "--save-position-on-quit", "--loop-file",
                             "--watch-later-dir", laterDir, file]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A failure bound only: a run that never reports its first picture is killed.
        let guardKill = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: guardKill)
        defer { guardKill.cancel(); if process.isRunning { process.terminate() } }
        // Wait on the output: the interrupt goes once the process says it shows pictures.
        var text = ""
        while !text.contains(#""event":"firstFrame""#) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text.contains(#""event":"firstFrame""#), "\(text)")
        process.interrupt()
        text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // It dies of the signal once done (a shell loop running it stops too), after saving.
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT,
                "\(process.terminationReason) \(process.terminationStatus)")
        #expect(text.contains(#""event":"end""#), "the end summary after the interrupt: \(text)")
        let saved = WatchLater(directory: laterDir).position(for: file)
        #expect(saved.map { $0 >= 0 && $0 < 3.5 } == true, "saved: \(String(describing: saved))")
    }

    @Test func theConfigFileGivesDefaultsTheCommandLineOverrides() throws {
        let home = try RememberingTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("config/tandem")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let conf = folder.appendingPathComponent("tandem.conf")
        try "# mine\nstart=0:02\nno-resume-playback\n".write(to: conf, atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": home.appendingPathComponent("state").path]
        let file = TestAssets.path("h264-aac.mp4")
        let configured = try Self.run(["play", "--fast", "--json", file], environment: environment)
        #expect(configured.status == 0, "\(configured.stderr)")
        #expect(Self.firstFrame(configured.stdout) == 2)
        #expect(Self.firstFrame(try Self.run(["play", "--fast", "--json", "--start", "1", file], environment: environment).stdout) == 1)
        #expect(Self.firstFrame(try Self.run(["play", "--fast", "--json", "--no-config", file], environment: environment).stdout) == 0)

        try "start=0:02\nspeed\n".write(to: conf, atomically: true, encoding: .utf8)
        let bad = try Self.run(["play", "--fast", file], environment: environment)
        #expect(bad.status == 1)
        #expect(bad.stderr == "tandem: \(conf.path):2: speed needs a value (speed=VALUE)\n")
        try "bogus=1\n".write(to: conf, atomically: true, encoding: .utf8)
        let unknown = try Self.run(["play", "--fast", file], environment: environment)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("tandem: \(conf.path):1: "), "\(unknown.stderr)")
    }
}
