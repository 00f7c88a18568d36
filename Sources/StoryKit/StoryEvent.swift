/// Where the viewer is in the list: the segment indicator of a stories UI.
public struct StoryIndicator: Sendable, Equatable, Codable {
    public var index: Int
    public var count: Int
    /// Fraction of the current story played, 0…1 (0 when its duration is unknown).
    public var progress: Double

    public init(index: Int, count: Int, progress: Double) {
        self.index = index
        self.count = count
        self.progress = progress
    }
}

/// What a ``StoryNavigator`` tells its observers.
public enum StoryEvent: Sendable, Equatable {
    /// A story became the current one and plays (or shows its error, when `.storyFailed` came
    /// for it as it was opened).
    case storyStarted(StoryIndicator, title: String)
    /// The current story's first picture is on; `latency` is seconds since the tap or jump that
    /// asked for it, or since the commit of a swipe (0 when the neighbour had it ready by then).
    case firstFrame(index: Int, latency: Double)
    /// A story's poster stands in for it until its first frame.
    case posterShown(index: Int, source: Poster.Source)
    case transitionBegan(from: Int, to: Int)
    case transitionCommitted(from: Int, to: Int)
    case transitionCancelled(from: Int, to: Int)
    /// The number of players alive (opening, playing or closing) changed.
    case livePlayers(Int)
    /// Periodic position of the current story (when the navigator has a progress interval).
    case progress(StoryIndicator)
    /// A story could not be opened (reported as it is tried); navigation goes on.
    case storyFailed(index: Int, reason: String)
    /// Auto-advance went past the last story.
    case finished
}
