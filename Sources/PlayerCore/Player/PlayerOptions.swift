import Logging

/// How a ``Player`` is built: its sinks, pacing and time source.
public struct PlayerOptions: Sendable {
    /// Where pictures go; nil: the video stream is not decoded at all.
    public var videoSink: (any VideoSink)?
    /// Where sound goes; nil: the audio stream is not decoded at all.
    public var audioSink: (any AudioSink)?
    /// No pacing: every frame is decoded and presented as fast as possible, none dropped.
    public var fast: Bool
    /// Host time for the media clock; a ``ManualTimeSource`` in tests.
    public var timeSource: any TimeSource
    /// Which video stream to play (a container stream index); nil: FFmpeg's best.
    public var videoStreamIndex: Int?
    /// Which audio track to play (mpv's `--aid`; `.auto`: by ``audioLanguages``, then flags).
    public var audioChoice: TrackChoice = .auto
    /// Preferred audio languages in order (mpv's `--alang`).
    public var audioLanguages: [String] = []
    /// Subtitles drawn onto the pictures; nil: none are decoded.
    public var subtitles: SubtitleOptions?
    /// Decoder threads; 0 lets FFmpeg choose from the core count.
    public var decoderThreads: Int
    /// Speed from the first sample on (so the preroll is already made at it); clamped to 0.25…4.
    public var rate: Double
    public var logger: Logger
    /// Options for opening the input (libavformat's, e.g. `headers` for an http source).
    public var inputOptions: [String: String] = [:]
    /// Where playback starts (mpv's `--start`): an accurate seek asked for before any frame is decoded,
    /// so nothing before it is ever presented. Nil: the start of the file.
    public var startPosition: Double?
    /// The stream time (seconds, on the input's own timestamps) that is position 0; nil: the
    /// input's start. A live party sets its origin here, so that every member's positions are on
    /// the stream's time line, the same whatever moment its player entered the stream at.
    public var timeOrigin: Double?
    /// Sound files played with the input on its clock (mpv's `--audio-file`): a page's separate
    /// sound format, or a dub beside a film. Their streams are numbered after the input's; the
    /// first one's sound is played unless a track is chosen.
    public var audioFiles: [String] = []

    public init(videoSink: (any VideoSink)? = NullVideoSink(), audioSink: (any AudioSink)? = NullAudioSink(),
                fast: Bool = false, timeSource: any TimeSource = MonotonicTimeSource(),
                videoStreamIndex: Int? = nil, decoderThreads: Int = 0, rate: Double = 1,
                logger: Logger = Logger(label: "tandem.player")) {
        self.rate = rate
        self.videoSink = videoSink
        self.audioSink = audioSink
        self.fast = fast
        self.timeSource = timeSource
        self.videoStreamIndex = videoStreamIndex
        self.decoderThreads = decoderThreads
        self.logger = logger
    }
}
