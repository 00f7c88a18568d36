/// The application side of the mpv IPC server: what clients watch and steer.
///
/// The server calls these methods from Swift tasks, never on a NIO event loop, so
/// implementations may suspend freely (for example to ask a watch-party host). Requests from
/// one client are handled one at a time, in order; different clients run concurrently.
public protocol IPCTarget: Sendable {
    /// The current value of `property`, or `nil` when it is unavailable
    /// (clients then get the error `"property unavailable"`).
    func property(_ property: IPCProperty) async -> IPCValue?

    /// Pauses or resumes playback.
    func setPause(_ paused: Bool) async throws(IPCRefusal)

    /// Sets the playback speed; the server only passes finite values in mpv's range 0.01 ... 100.
    func setSpeed(_ speed: Double) async throws(IPCRefusal)

    /// Seeks to an absolute position in seconds (never negative). Relative seeks are
    /// converted by the server using the current `time-pos`.
    func seek(to seconds: Double) async throws(IPCRefusal)

    /// Moves to the next (`step` 1, mpv's `playlist-next`) or previous (−1, `playlist-prev`) item of
    /// the playlist; refuses when there is none that way (mpv's "error running command").
    func playlistStep(_ step: Int) async throws(IPCRefusal)

    /// Asks the application to quit. Called after the reply to `quit` has been sent.
    func quit() async

    /// Property changes the server forwards to observing clients (typically `pause` and `speed`,
    /// also `duration` when a file is opened). The server calls this once each time it starts and
    /// iterates the stream until it stops; it filters out values a client has already seen.
    func propertyChanges() -> AsyncStream<IPCPropertyChange>
}

extension IPCTarget {
    /// Without a playlist there is nothing before or after the file.
    public func playlistStep(_ step: Int) async throws(IPCRefusal) {
        throw .noPlaylistItem
    }
}

extension IPCRefusal {
    /// No playlist item that way (mpv's reply to `playlist-next` at the end of a playlist).
    public static let noPlaylistItem = IPCRefusal(IPCErrorCode.commandError.rawValue)
}
