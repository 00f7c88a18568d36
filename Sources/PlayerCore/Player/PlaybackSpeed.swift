/// How fast media plays: the user's `rate` (pitch kept, by the tempo filter) and the sync
/// `correction` on top of it (by resampling, inaudible within ±0.5 %). They are stored apart and
/// combined here only: every clock rate and every media-per-sample figure comes from ``effective``.
struct PlaybackSpeed: Sendable, Equatable {
    /// The speed the user asked for (1 = normal).
    var rate: Double
    /// A small fraction added for sync (0.001 = 0.1 % faster).
    var correction: Double

    init(rate: Double, correction: Double = 0) {
        self.rate = rate
        self.correction = correction
    }

    /// Media seconds per host second.
    var effective: Double { rate * (1 + correction) }
}
