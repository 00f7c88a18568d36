import Foundation
import Testing
import TestSupport
@testable import TandemApp

/// The runner behind yt-dlp: real child processes, their output on both streams at once, and the
/// time limit and cancellation that end a stuck one without waiting for it.
@Suite struct BoundedProcessTests {
    @Test func itCollectsBothStreamsAndTheExitStatus() async throws {
        let outcome = try await BoundedProcess.run("sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: defaultBound)
        #expect(outcome.status == 3)
        #expect(String(decoding: outcome.standardOutput, as: UTF8.self) == "out\n")
        #expect(String(decoding: outcome.standardError, as: UTF8.self) == "err\n")
    }

    /// More than a pipe holds on both streams: neither blocks the child while the other is read.
    @Test func largeOutputOnBothStreamsDoesNotDeadlock() async throws {
        let outcome = try await BoundedProcess.run("sh", ["-c", "head -c 1000000 /dev/zero; head -c 200000 /dev/zero >&2; head -c 1000000 /dev/zero"],
                                                   timeout: defaultBound)
        #expect(outcome.status == 0 && outcome.standardOutput.count == 2_000_000 && outcome.standardError.count == 200_000)
    }

    @Test func aMissingProgramIsNotFound() async {
        await #expect(throws: BoundedProcess.Failure.notFound) {
            try await BoundedProcess.run("tandem-no-such-program", [], timeout: defaultBound)
        }
    }

    @Test func theEnvironmentIsPassedOn() async throws {
        let outcome = try await BoundedProcess.run("sh", ["-c", "printf %s \"$TANDEM_PROBE\""], environment: ["TANDEM_PROBE": "set"], timeout: defaultBound)
        #expect(String(decoding: outcome.standardOutput, as: UTF8.self) == "set")
    }

    /// A child past its time limit is killed; a grandchild still holding its output open (a script's
    /// `sleep`) does not keep the run waiting.
    @Test func aChildPastItsLimitIsStoppedEvenWhenAGrandchildHoldsItsOutput() async throws {
        _ = try await within(defaultBound, "the run to end at its limit") {
            await #expect(throws: BoundedProcess.Failure.timedOut) {
                try await BoundedProcess.run("sh", ["-c", "sleep 5 & sleep 5; echo never"], timeout: 0.5)
            }
        }
    }

    @Test func cancellingTheTaskStopsTheChild() async throws {
        let (started, signal) = AsyncStream<Void>.makeStream()
        let run = Task {
            signal.yield()
            return try await BoundedProcess.run("sleep", ["20"], timeout: 60)
        }
        for await _ in started { break }
        run.cancel()
        let result = try await within(defaultBound, "the cancelled run to end") { await run.result }
        #expect(throws: BoundedProcess.Failure.cancelled) { try result.get() }
    }
}
