/// Subtitles of a ``Player``: which track shows, from which files, drawn by which renderer.
public struct SubtitleOptions: Sendable {
    /// A subtitle file beside the video.
    public struct ExternalFile: Sendable, Equatable {
        public var path: String
        /// Found by its name next to the video rather than given: a file that cannot be read is
        /// skipped with a warning instead of failing the open, and it ranks after given files.
        public var autoLoaded: Bool

        public init(path: String, autoLoaded: Bool = false) {
            self.path = path
            self.autoLoaded = autoLoaded
        }

        /// Subtitle files named after `video` in its folder (`film.srt`, `film.en.ass` for `film.mkv`),
        /// as mpv finds them by itself; none for a URL.
        public static func discovered(nextTo video: String) -> [ExternalFile] {
            SubtitleFile.discover(nextTo: video).map { ExternalFile(path: $0, autoLoaded: true) }
        }
    }

    public var renderer: any SubtitleRenderer
    public var choice: TrackChoice
    /// Preferred languages in order (`--slang`).
    public var languages: [String]
    public var externalFiles: [ExternalFile]
    /// Seconds added to every subtitle's times (mpv's `--sub-delay`; z/x change it).
    public var delay: Double
    /// False: chosen but hidden (mpv's `--sub-visibility=no`; v toggles it).
    public var visible: Bool

    public init(renderer: any SubtitleRenderer, choice: TrackChoice = .auto, languages: [String] = [],
                externalFiles: [ExternalFile] = [], delay: Double = 0, visible: Bool = true) {
        self.renderer = renderer
        self.choice = choice
        self.languages = languages
        self.externalFiles = externalFiles
        self.delay = delay
        self.visible = visible
    }
}
