import FFmpegKit

/// Everything the window draws in one turn. The app builds one each turn (``WindowController/scene()``);
/// the window compares it with the last and renders only when something visible changed.
public struct WindowScene: Sendable {
    /// The picture on screen.
    public var primary: WindowVideoSink?
    /// A second picture, drawn beside the primary while ``slide`` is not 0 (a story swipe).
    public var secondary: WindowVideoSink?
    /// −1…1. Positive: the secondary enters from the right and the primary leaves to the left by
    /// `slide` of the window's width; negative: the secondary enters from the left. 0: primary only.
    public var slide: Double
    /// Shown (letterboxed) in place of the primary picture until the primary sink has one.
    public var poster: RGBAImage?
    /// The same for the secondary.
    public var secondaryPoster: RGBAImage?
    /// Media seconds, for the progress bar.
    public var position: Double
    /// Media seconds; nil hides the total and the bar's fill.
    public var duration: Double?
    /// A live stream: seconds behind its edge, shown as "LIVE −Ns" where a duration would be (and
    /// no bar's fill: a live stream has no end to measure against).
    public var behindLive: Double? = nil
    /// The story indicator at the top; nil: none.
    public var segments: StorySegments?
    /// A free status line at the top left (a party's "3 watching · skew +1.2 ms").
    public var status: String?
    /// Short notices, each shown for a few seconds from the turn it first appears (see ``Toast``).
    public var toasts: [Toast]
    /// An error line in the middle of the window.
    public var error: String?
    /// False: pictures only (tests, screenshots).
    public var showOverlays: Bool
    public var paused: Bool
    /// 0…100 %; a change shows "Volume: N%" for a moment, as mpv does.
    public var volume: Int
    /// A change shows "Mute: yes" / "Mute: no" for a moment.
    public var muted: Bool
    /// The chat line being typed in a party window (nil: closed), drawn as a bar over the bottom
    /// (``ChatLineOverlay``). The window does not compare it: the controller calls
    /// ``PlayerWindow/setNeedsRedraw()`` when it changes.
    public var chatLine: String? = nil
    /// How ``slide`` moves the two pictures: side by side, or as two faces of a cube.
    public var transition: StoryTransition = .slide

    public init(primary: WindowVideoSink? = nil, secondary: WindowVideoSink? = nil, slide: Double = 0,
                poster: RGBAImage? = nil, secondaryPoster: RGBAImage? = nil, position: Double = 0,
                duration: Double? = nil, segments: StorySegments? = nil, status: String? = nil,
                toasts: [Toast] = [], error: String? = nil, showOverlays: Bool = true, paused: Bool = false,
                volume: Int = 100, muted: Bool = false) {
        self.primary = primary
        self.secondary = secondary
        self.slide = slide
        self.poster = poster
        self.secondaryPoster = secondaryPoster
        self.position = position
        self.duration = duration
        self.segments = segments
        self.status = status
        self.toasts = toasts
        self.error = error
        self.showOverlays = showOverlays
        self.paused = paused
        self.volume = volume
        self.muted = muted
    }
}
