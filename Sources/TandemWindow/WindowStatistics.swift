/// What a window did with the pictures its sinks received.
public struct WindowStatistics: Sendable, Equatable {
    /// Pictures uploaded and drawn.
    public var shownPictures = 0
    /// Pictures a sink received but the window never drew, because a newer one had replaced it by the
    /// next render turn (the window fell behind the presenter). Not counted by the player's
    /// `droppedFrames`, which are frames the presenter itself skipped as late.
    public var skippedPictures = 0

    public init(shownPictures: Int = 0, skippedPictures: Int = 0) {
        self.shownPictures = shownPictures
        self.skippedPictures = skippedPictures
    }
}
