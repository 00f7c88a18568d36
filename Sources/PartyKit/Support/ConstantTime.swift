/// Comparison of secrets (party keys, seat tokens, media tokens) whose time does not depend on where
/// the two first differ, so a guesser cannot learn a secret byte by byte from answer times.
public enum ConstantTime {
    /// Whether `a` and `b` have the same UTF-8 bytes. Every byte of the longer one is looked at
    /// whatever the contents; only the lengths (which are not secret: keys and tokens have fixed
    /// lengths) can show in the time taken.
    public static func equals(_ a: String, _ b: String) -> Bool {
        equals(Array(a.utf8), Array(b.utf8))
    }

    /// Whether two byte sequences are equal, in time that depends only on their lengths.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt64(truncatingIfNeeded: a.count ^ b.count)
        let count = max(a.count, b.count)
        var i = 0
        while i < count {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= UInt64(x ^ y)
            i += 1
        }
        return difference == 0
    }
}
