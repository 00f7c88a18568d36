import FFmpegKit

/// The grid of AAC frames of an item's transcoded sound: frame j holds samples
/// [j × 1024, (j + 1) × 1024) of the item's timeline at ``sampleRate`` (sample 0 at time 0).
/// Segment k owns the frames that start inside its span, so neighbouring segments butt together
/// exactly — what one leaves off at its end the next begins with — however they were made. Pure.
public struct AudioGrid: Sendable, Equatable {
    /// Samples per AAC frame.
    public static let frameSamples: Int64 = 1024

    public let sampleRate: Int

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// The first frame starting at or after `ticks` of `timeBase`.
    public func firstFrame(atOrAfter ticks: Int64, timeBase: Rational) -> Int64 {
        // ceil(ticks × num × rate / (den × 1024)), exactly.
        let numerator = Int64(timeBase.num) * Int64(sampleRate), denominator = Int64(timeBase.den) * Self.frameSamples
        return Self.divide(ticks * numerator, denominator, roundingUp: true)
    }

    /// The frame holding second `seconds`.
    public func frame(holding seconds: Double) -> Int64 {
        Int64((seconds * Double(sampleRate) / Double(Self.frameSamples)).rounded(.down))
    }

    /// The frame holding sample `sample`.
    public func frame(holdingSample sample: Int64) -> Int64 { Self.divide(sample, Self.frameSamples, roundingUp: false) }

    /// Seconds at which frame `j` starts.
    public func seconds(ofFrame j: Int64) -> Double { Double(j * Self.frameSamples) / Double(sampleRate) }

    /// a / b rounded down or up, for any signs (b > 0).
    static func divide(_ a: Int64, _ b: Int64, roundingUp: Bool) -> Int64 {
        let q = a / b, r = a % b
        if r == 0 { return q }
        if roundingUp { return a > 0 ? q + 1 : q }
        return a < 0 ? q - 1 : q
    }
}
