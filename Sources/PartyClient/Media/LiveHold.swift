import FFmpegKit
import PartyKit

/// How far behind the live edge a live party begins (``LiveOrigin``): the host's choice
/// (`--live-delay`), or the three segments HLS players hold back (``LiveOrigin/segmentsHeldBack``),
/// measured in seconds so that the `live` command can bring the party back to it.
///
/// libavformat tells no segment durations and no edge, but it enters a live playlist where it is
/// told (`live_start_index`): at the window's first segment (0), at the newest (−1), or three from
/// the end (its default, where the host's first open entered). Each entry's first timestamp is a
/// segment start, so the three opens give the window's start, the newest segment's start and the
/// mean segment length between, and the edge is the newest start plus one such length.
public enum LiveHold {
    /// Where the window of the playlist at `url` starts, where its edge is, and where a default
    /// entry (`entry`, the first timestamp of an open without `live_start_index`) lies.
    public struct Window: Sendable, Equatable {
        public var start: Double
        public var edge: Double
        public var entry: Double

        public init(start: Double, edge: Double, entry: Double) {
            self.start = start
            self.edge = edge
            self.entry = entry
        }
    }

    /// What is wrong with a `--live-delay` for a stream.
    public struct TooLong: Error, Sendable, Equatable, CustomStringConvertible {
        public var url: String
        public var delay: Double
        public var window: Double

        public init(url: String, delay: Double, window: Double) {
            self.url = url
            self.delay = delay
            self.window = window
        }

        /// The reason, without the URL.
        public var reason: String {
            String(format: "--live-delay %g is longer than the %.1f s the stream keeps (its playlist's window)", delay, window)
        }
        public var description: String { "\(url): \(reason)" }
    }

    /// The window of the HLS playlist at `url`, opened twice more (at its start and at its newest
    /// segment); nil when it cannot be measured (not a segment playlist, a single segment).
    public static func window(url: String, entry: Double, inputOptions: [String: String] = [:]) -> Window? {
        func start(_ index: String) -> Double? {
            var options = inputOptions
            options["live_start_index"] = index
            return (try? InputFile(url: url, options: options)).map { $0.info().startSeconds }
        }
        guard let first = start("0"), let newest = start("-1") else { return nil }
        return window(start: first, newest: newest, entry: entry)
    }

    /// The rule on the three starts: the edge is the newest start plus the mean segment length
    /// between the default entry and the newest (``LiveOrigin/segmentsHeldBack`` − 1 segments).
    public static func window(start: Double, newest: Double, entry: Double) -> Window? {
        let between = Double(LiveOrigin.segmentsHeldBack - 1)
        guard newest > entry, entry >= start else { return nil }
        return Window(start: start, edge: newest + (newest - entry) / between, entry: entry)
    }

    /// The party's origin and hold in `window`: `delay` seconds behind its edge when given (it must
    /// fit in the window), else at the default entry, held as far behind the edge as it is.
    public static func origin(in window: Window, delay: Double?, url: String) throws(TooLong) -> LiveOrigin {
        guard let delay else { return LiveOrigin(origin: window.entry, delay: window.edge - window.entry) }
        let kept = window.edge - window.start
        guard delay <= kept else { throw TooLong(url: url, delay: delay, window: kept) }
        return LiveOrigin(origin: window.edge - delay, delay: delay)
    }
}
