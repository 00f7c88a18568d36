import Foundation
import Logging
import PlayerCore

enum TestSupport {
    /// The repository's assets folder.
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("assets").path

    /// A one-minute test video with sound (assets/party.mp4).
    static var partyFile: String { assets + "/party.mp4" }

    static func headless() -> PlayerOptions {
        PlayerOptions(videoSink: NullVideoSink(), audioSink: NullAudioSink(realTime: true))
    }

    static var quietLogger: Logger {
        var logger = Logger(label: "syncplay.test")
        logger.logLevel = .critical
        return logger
    }

    /// Runs `body`, failing with `what` if it takes longer than `seconds` (a failure bound, not a
    /// measurement).
    static func within<T: Sendable>(_ seconds: Double, _ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TimedOut(what: what, seconds: seconds) }
            return value
        }
    }

    /// Polls `condition` every 50 ms until it holds, or fails after `seconds`.
    static func eventually(_ seconds: Double, _ what: String, _ condition: @escaping @Sendable () async -> Bool) async throws {
        try await within(seconds, what) {
            while !(await condition()) { try await Task.sleep(nanoseconds: 50_000_000) }
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        let seconds: Double
        var description: String { "timed out after \(seconds) s waiting for \(what)" }
    }
}
