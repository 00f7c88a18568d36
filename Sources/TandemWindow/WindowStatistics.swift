/// What a window did with the pictures its sinks received.
public struct WindowStatistics: Sendable, Equatable {
    /// Pictures uploaded and drawn.
    public var shownPictures = 0
    /// Pictures a sink received but the window never drew, because a newer one had replaced it by the
    /// next render turn (the window fell behind the presenter). Not counted by the player's
    /// `droppedFrames`, which are frames the presenter itself skipped as late.
    public var skippedPictures = 0
    /// On a display whose refreshes the window knows (vsync): pictures shown a refresh or more after
    /// the one they were aimed at, the picture before them shown again meanwhile (mpv's "delayed").
    public var delayedPictures = 0
    /// The display's refresh period the window places pictures on (nil: no vsync it could learn, so
    /// pictures are placed by the clock alone).
    public var refreshPeriod: Double?

    public init(shownPictures: Int = 0, skippedPictures: Int = 0, delayedPictures: Int = 0, refreshPeriod: Double? = nil) {
        self.shownPictures = shownPictures
        self.skippedPictures = skippedPictures
        self.delayedPictures = delayedPictures
        self.refreshPeriod = refreshPeriod
    }
}
