/// A display's refreshes on the host clock: `anchor + k × period` for every whole k. A window whose
/// presents wait for the refresh (vsync) learns it; the presenter then aims each picture at the
/// refresh nearest its instant (mpv's display sync, without resampling: the party's clock stays the
/// master), so a picture is never a refresh late because it was handed over a moment too late.
public struct RefreshGrid: Sendable, Equatable {
    /// Seconds between refreshes (1/60 on a 60 Hz display).
    public var period: Double
    /// One refresh's instant (host seconds).
    public var anchor: Double

    public init(period: Double, anchor: Double) {
        self.period = period
        self.anchor = anchor
    }

    /// The refresh nearest `instant`.
    public func nearest(to instant: Double) -> Double {
        anchor + ((instant - anchor) / period).rounded() * period
    }
}
