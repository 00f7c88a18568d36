import PlayerCore

/// One line of `tandem play --json` (README.md): `open`, then `state`, `seeked`, `firstFrame`,
/// `warning`, `ended` as they happen, a `window` line when a window was shown, and `end` last.
package enum PlayEvent: Encodable, Sendable, Equatable {
    /// The file opened; `durationSeconds` is `null` when neither the container nor the page knows it.
    /// For a page's video: `file` is its page, `title` the page's title, `url` the media URL opened.
    case open(file: String, durationSeconds: Double?, video: Bool, audio: Bool, title: String? = nil, url: String? = nil)
    case state(PlayerState)
    case seeked(position: Double)
    /// The first picture; `sinceStartSeconds` from the command's start.
    case firstFrame(position: Double, sinceStartSeconds: Double)
    case warning(message: String)
    case ended
    /// Pictures the window drew or skipped; with display sync (a refresh grid learned from vsync), the
    /// display's rate and the pictures shown a refresh late.
    case window(shownFrames: Int, skippedFrames: Int, delayedFrames: Int, refreshRate: Double?)
    /// The summary, always the last line.
    case end(PlayEnd)

    /// The fields of the `end` line.
    package struct PlayEnd: Sendable, Equatable {
        package var videoFrames: Int
        /// Per channel, at the source rate.
        package var audioSamples: Int
        package var droppedFrames: Int
        package var warnings: Int
        /// The media played.
        package var durationSeconds: Double
        package var wallSeconds: Double
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: EventField.self)
        switch self {
        case .open(let file, let durationSeconds, let video, let audio, let title, let url):
            try c.encode(event: "open")
            try c.encode(file, forKey: "file")
            if let title { try c.encode(title, forKey: "title") }
            if let url { try c.encode(url, forKey: "url") }
            try c.encode(number: durationSeconds, forKey: "durationSeconds")
            try c.encode(video, forKey: "video")
            try c.encode(audio, forKey: "audio")
        case .state(let state):
            try c.encode(event: "state")
            try c.encode(state.rawValue, forKey: "state")
        case .seeked(let position):
            try c.encode(event: "seeked")
            try c.encode(number: position, forKey: "position")
        case .firstFrame(let position, let sinceStartSeconds):
            try c.encode(event: "firstFrame")
            try c.encode(number: position, forKey: "position")
            try c.encode(number: sinceStartSeconds, forKey: "sinceStartSeconds")
        case .warning(let message):
            try c.encode(event: "warning")
            try c.encode(message, forKey: "message")
        case .ended:
            try c.encode(event: "ended")
        case .window(let shownFrames, let skippedFrames, let delayedFrames, let refreshRate):
            try c.encode(event: "window")
            try c.encode(shownFrames, forKey: "shownFrames")
            try c.encode(skippedFrames, forKey: "skippedFrames")
            if let refreshRate {
                try c.encode((refreshRate * 1000).rounded() / 1000, forKey: "refreshRate")
                try c.encode(delayedFrames, forKey: "delayedFrames")
            }
        case .end(let end):
            try c.encode(event: "end")
            try c.encode(end.videoFrames, forKey: "videoFrames")
            try c.encode(end.audioSamples, forKey: "audioSamples")
            try c.encode(end.droppedFrames, forKey: "droppedFrames")
            try c.encode(end.warnings, forKey: "warnings")
            try c.encode(number: end.durationSeconds, forKey: "durationSeconds")
            try c.encode(number: end.wallSeconds, forKey: "wallSeconds")
        }
    }
}
