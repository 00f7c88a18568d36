import Foundation
import Glibc
import Testing
import TestSupport

/// A second Ctrl-C ends headless `tandem play` at once while the first is still quitting (as mpv's
/// does): a quit stuck on something must not leave the process unkillable by Ctrl-C.
///
/// The quit is made to hang without any hook: the run's standard output is a pipe the test fills
/// and never reads, so the quit's last event line (its end summary) blocks in `write` for ever.
@Suite(.serialized) struct SecondInterruptTests {
    /// Failure bound only: a run still alive this long after its second Ctrl-C is killed.
    static let bound = 30.0

    /// Writes into `fd` (a pipe's write end) until the pipe is full.
    static func fill(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        // The flag is on the pipe's open file, which the child's stdout shares: set only while filling.
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        while junk.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) > 0 {}
        _ = fcntl(fd, F_SETFL, flags)
    }

    /// Reads the non-blocking `fd` until `text` has come (polling, every 10 ms, for at most `seconds`);
    /// all that was read.
    static func read(_ fd: Int32, until text: String, within seconds: Double) async -> String {
        var read = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        _ = await eventually(within: seconds, every: .milliseconds(10)) {
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                read += chunk[0..<n]
            }
            return String(decoding: read, as: UTF8.self).contains(text)
        }
        return String(decoding: read, as: UTF8.self)
    }

    @Test func aSecondSigintEndsAStuckQuit() async throws {
        let home = try TemporaryFolder("remember")
        defer { home.remove() }
        // The position cannot be saved under a regular file: the quit says so on stderr, which
        // tells the test that the first Ctrl-C was heard and the quit is under way.
        let blocker = home.url.appendingPathComponent("not-a-folder")
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data())
        // The run's standard output: a pipe of the test's own, whose write end it keeps to fill it.
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer {
            close(readEnd)
            close(writeEnd)
        }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // Only the test's read end: the write end's open file is the child's stdout too.
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        let process = try ChildProcess.tandem(["play", "--headless", "--json", "--no-config", "--save-position-on-quit", "--loop-file",
                                               "--watch-later-dir", blocker.appendingPathComponent("later").path,
                                               Repository.asset("video-only.mp4")], standardOutput: .descriptor(writeEnd))
        // SIGKILL at the end: a run that ignores Ctrl-C ignores SIGTERM too (both are heard the same way).
        defer { process.kill() }

        let started = await Self.read(readEnd, until: #""event":"firstFrame""#, within: 120)
        #expect(started.contains(#""event":"firstFrame""#), "\(started)")
        Self.fill(writeEnd)
        process.interrupt()
        let said = try await process.output(containing: "cannot save the position", from: .standardError, within: 120)
        #expect(said.contains("cannot save the position"), "\(said)")
        // Its end summary waits on the full pipe: the quit cannot finish by itself.
        #expect(process.isRunning)

        process.interrupt()
        let ended = try? await process.exit(within: Self.bound)
        #expect(ended == .signalled(SIGINT),
                "ended by the second Ctrl-C, not killed at the bound: \(ended.map { "\($0)" } ?? "still running")")
    }
}
