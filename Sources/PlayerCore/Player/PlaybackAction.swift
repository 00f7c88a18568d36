/// What ``PlaybackState`` asks its owner to do after an event, outside the state's lock.
enum PlaybackAction: Sendable, Equatable {
    /// Tell the player's observers.
    case emit(PlayerEvent)
    /// Wake the tasks waiting for a preroll of a generation older than this serial.
    case resumeWaiters(olderThan: Int)
}
