/// What a key asks the window's controller to do (mpv's and ffplay's default bindings, see ``KeyBinding``).
public enum WindowCommand: Sendable, Equatable {
    /// Play if paused, pause if playing.
    case togglePause
    /// Seek by this many seconds from the current position (negative: backwards).
    case seek(Double)
    /// The previous or next story in a story list (a playlist in mpv's terms).
    case previousStory
    case nextStory
    /// Pause and show the next picture.
    case step
    /// Save what the window shows as a PNG.
    case screenshot
    case toggleFullscreen
    case toggleMute
    /// Change the volume by this many percent points.
    case volume(Int)
    /// Show the next (`forward`) or previous subtitle track, "off" between the last and the first (mpv's j/J).
    case cycleSubtitles(forward: Bool)
    /// Show or hide the chosen subtitles (mpv's v).
    case toggleSubtitles
    /// Change the subtitle delay by this many seconds (mpv's z/x: ∓0.1 s).
    case subtitleDelay(Double)
    /// Change the audio delay by this many seconds (mpv's Ctrl+− / Ctrl++: ∓0.1 s; positive plays the
    /// sound later).
    case audioDelay(Double)
    /// Play the next audio track (mpv's #).
    case cycleAudio
    /// Back to the live edge of a live stream, less the party's hold (End, as a browser's player
    /// goes to a live stream's edge; mpv binds nothing there).
    case goLive
    /// Close the window (also sent when the window is closed or the process gets SIGINT).
    case quit
}
