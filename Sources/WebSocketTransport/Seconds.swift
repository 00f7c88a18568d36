import NIOCore

/// Conversions between the `Double` seconds of the public API and NIO's time amounts.
enum Seconds {
    /// The longest delay a timer is given: about 31 years, beyond any useful timeout, and small enough
    /// that its nanoseconds fit an `Int64`.
    static let longest: Double = 1e9

    /// `seconds` as a time amount, clamped to 0...``longest``.
    static func timeAmount(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(min(max(seconds, 0), Self.longest) * 1e9))
    }

    /// `seconds` for a message: `"2"`, `"0.3"`.
    static func text(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
