/// What the navigator's serial task is asked to do, in the order it is asked: the operations of
/// the public API (each with the continuation its caller awaits), and reports from the tasks the
/// navigator started (a player became ready or ended, a poster was made, a timer went off).
enum NavigatorRequest: Sendable {
    /// A public operation; `reply` is resumed once it is done (with ``StoryNavigator/begin(_:)``'s
    /// answer; true for the others).
    case operation(Operation, reply: CheckedContinuation<Bool, Never>)
    case report(Report)

    enum Operation: Sendable {
        case play, pause, stop, next, previous, cancel
        case jump(Int)
        case begin(StoryNavigator.Direction)
        case beginTo(Int)
        case progress(Double)
        case commit(position: Double?, at: Double?)
        case show(ShowOrder)
    }

    enum Report: Sendable {
        /// The player of slot `slot` has its first picture (of its current preroll).
        case ready(slot: Int)
        /// The player of slot `slot` ended or was closed.
        case ended(slot: Int)
        case posterMade(Poster, slot: Int)
        /// A poster loaded ahead (``PosterPreload``) is made, or could not be (nil).
        case posterLoaded(index: Int, poster: Poster?)
        /// The auto-advance timer started for slot `slot` went off.
        case advanceDue(slot: Int)
        /// The progress interval went by.
        case tick
    }

    /// ``StoryNavigator/show(_:position:at:playing:rate:prepared:)``'s arguments.
    struct ShowOrder: Sendable {
        var target: Int
        var position: Double
        var hostTime: Double
        var playing: Bool
        var rate: Double
        var prepared: @Sendable () async -> Void
    }
}
