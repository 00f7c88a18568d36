import Foundation

/// The lines `tandem play --json` prints as README.md documents them, decoded the way a consumer
/// reads them: by the tests of the play session's output (TandemAppTests) and of the built binary
/// (TandemCLITests).
public enum PlayEventLines {
    /// The documented `end` fields.
    public struct End: Decodable, Equatable, Sendable {
        public var event: String
        public var videoFrames: Int
        public var audioSamples: Int
        public var droppedFrames: Int
        public var durationSeconds: Double
        public var wallSeconds: Double

        public init(event: String, videoFrames: Int, audioSamples: Int, droppedFrames: Int, durationSeconds: Double,
                    wallSeconds: Double) {
            self.event = event
            self.videoFrames = videoFrames
            self.audioSamples = audioSamples
            self.droppedFrames = droppedFrames
            self.durationSeconds = durationSeconds
            self.wallSeconds = wallSeconds
        }
    }

    /// Any line: its kind, plus the fields the other events carry.
    public struct Line: Decodable, Sendable {
        public var event: String
        public var state: String?
        public var position: Double?
        public var message: String?
        public var sinceStartSeconds: Double?
        public var file: String?
        public var durationSeconds: Double?
        public var video: Bool?
        public var audio: Bool?
    }
}
