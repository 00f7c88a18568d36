import Foundation
import Logging
import PlayerCore

/// The test clip, headless players and a quiet logger for the Syncplay tests.
enum Fixtures {
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
}
