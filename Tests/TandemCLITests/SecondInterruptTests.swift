import Foundation
import Glibc
import Testing

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

    /// Reads `handle` until `text` has come (or the stream ends); all that was read.
    static func read(_ handle: FileHandle, until text: String) -> String {
        var read = ""
        while !read.contains(text) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            read += String(decoding: chunk, as: UTF8.self)
        }
        return read
    }

    @Test func aSecondSigintEndsAStuckQuit() throws {
        let home = try RememberingTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        // The position cannot be saved under a regular file: the quit says so on stderr, which
        // tells the test that the first Ctrl-C was heard and the quit is under way.
        let blocker = home.appendingPathComponent("not-a-folder")
        _ = FileManager.default.createFile(atPath: blocker.path, contents: Data())
        let process = Process()
        process.executableURL = try URLOpenErrorTests.binary()
        process.arguments = ["play", "--headless", "--json", "--no-config", "--save-position-on-quit", "--loop-file",
                             "--watch-later-dir", blocker.appendingPathComponent("later").path, TestAssets.path("video-only.mp4")]
        let out = Pipe(), errors = Pipe()
        // The test's own copy of the write end, to fill the pipe with.
        let writeEnd = dup(out.fileHandleForWriting.fileDescriptor)
        defer { close(writeEnd) }
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        // SIGKILL: a run that ignores Ctrl-C ignores SIGTERM too (both are heard the same way).
        let kill = { if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) } }
        let guardKill = DispatchWorkItem(block: kill)
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: guardKill)
        defer { guardKill.cancel(); kill() }

        let started = Self.read(out.fileHandleForReading, until: #""event":"firstFrame""#)
        #expect(started.contains(#""event":"firstFrame""#), "\(started)")
        Self.fill(writeEnd)
        process.interrupt()
        let said = Self.read(errors.fileHandleForReading, until: "cannot save the position")
        #expect(said.contains("cannot save the position"), "\(said)")
        // Its end summary waits on the full pipe: the quit cannot finish by itself.
        #expect(process.isRunning)

        let second = DispatchWorkItem(block: kill)
        process.interrupt()
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.bound, execute: second)
        process.waitUntilExit()
        second.cancel()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT,
                "ended by the second Ctrl-C, not killed at the bound: \(process.terminationReason) \(process.terminationStatus)")
    }
}
