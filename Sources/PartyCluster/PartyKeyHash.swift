import Crypto
import PartyKit

/// What the directory keeps of a party key: a random per-party salt and SHA-256(salt ‖ key), both hex.
/// Never the key: a reader of the database cannot join a party, and equal keys of two parties do not
/// show. Party keys are 100 random bits, so a fast hash is not a guessing aid.
public struct PartyKeyHash: Sendable, Equatable {
    /// Bytes of salt: as long as the hash's security level needs, so no two parties share one.
    public static let saltBytes = 16

    public let salt: String
    public let hash: String

    public init(salt: String, hash: String) {
        self.salt = salt
        self.hash = hash
    }

    /// A new salt and the hash of `key` under it.
    public init(key: String) {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.init(salt: Self.hex(salt), hash: Self.digest(key: key, salt: salt))
    }

    /// Whether `key` is the key this hash was made from, in time that does not depend on where the
    /// hashes first differ (``ConstantTime``).
    public func matches(key: String) -> Bool {
        guard let saltBytes = Self.bytes(hex: salt) else { return false }
        return ConstantTime.equals(Self.digest(key: key, salt: saltBytes), hash)
    }

    static func digest(key: String, salt: [UInt8]) -> String {
        var sha = SHA256()
        sha.update(data: salt)
        sha.update(data: Array(key.utf8))
        return hex(Array(sha.finalize()))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let chars = Array(hex.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < chars.count {
            guard let high = nibble(chars[i]), let low = nibble(chars[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
