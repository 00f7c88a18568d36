extension ParticipantCore {
    /// What the player tells the controller at each tick.
    public struct PlayerSnapshot: Sendable {
        public var position: Double
        public var prerolling: Bool
        /// Its clock runs but it has nothing read for the instant it should present (a stream that ran dry).
        public var starved: Bool
        /// Media seconds read ahead of its position (nil: unknown, a local file: plenty).
        public var readAhead: Double?
        /// Its input is read to the end: nothing more will come.
        public var inputEnded: Bool
        public init(position: Double, prerolling: Bool, starved: Bool = false, readAhead: Double? = nil, inputEnded: Bool = false) {
            self.position = position
            self.prerolling = prerolling
            self.starved = starved
            self.readAhead = readAhead
            self.inputEnded = inputEnded
        }
    }
}
