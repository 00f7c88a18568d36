import MediaTime
import Synchronization

/// What a sound output last reported of its delay (seconds from a pull until its first sample is
/// heard) and of its underflows: written by the output's own thread on every pull, read by the
/// player's audio stage in that same pull and by the status. Lock-free, for a real-time thread.
public final class OutputDelayReading: Sendable {
    private let reportedBits = Atomic<UInt64>(0)
    /// The largest report of the last ``peakWindow``, and when it was made.
    private let peakBits = Atomic<UInt64>(0)
    /// Host seconds as `Double` bits.
    private let peakAt = Atomic<UInt64>(0)
    private let clock = MonotonicTimeSource()
    private let added = Atomic<UInt64>(0)
    private let underflowCount = Atomic<Int>(0)

    public init(reported: Double = 0, audioDelay: Double = 0) {
        report(reported)
        setAudioDelay(audioDelay)
    }

    /// The delay the output reported last.
    public var reported: Double { Double(bitPattern: reportedBits.load(ordering: .relaxed)) }
    /// The largest delay reported lately: a server's queue fills and drains between pulls, so a single
    /// report is anywhere in that sawtooth; the status and the party's lead take its top.
    public var recentPeak: Double { Double(bitPattern: peakBits.load(ordering: .relaxed)) }

    /// How long the peak is held: several of a server's fill-and-drain cycles.
    static let peakWindow = 2.0
    /// mpv's `--audio-delay`: positive plays the sound later than the clock.
    public var audioDelay: Double { Double(bitPattern: added.load(ordering: .relaxed)) }
    /// What the player's clock takes as the delay: a sample pulled now is placed where the clock will
    /// be `latency` later. Less than reported by the audio delay, so a positive one is heard later.
    public var latency: Double { reported - audioDelay }
    /// Times the output ran dry (the server played silence it was not given).
    public var underflows: Int { underflowCount.load(ordering: .relaxed) }

    public func report(_ seconds: Double) {
        reportedBits.store(seconds.bitPattern, ordering: .relaxed)
        let now = clock.now()
        if seconds >= recentPeak || now - Double(bitPattern: peakAt.load(ordering: .relaxed)) > Self.peakWindow {
            peakBits.store(seconds.bitPattern, ordering: .relaxed)
            peakAt.store(now.bitPattern, ordering: .relaxed)
        }
    }
    public func setAudioDelay(_ seconds: Double) { added.store(seconds.bitPattern, ordering: .relaxed) }
    public func underflowed() { underflowCount.add(1, ordering: .relaxed) }
}
