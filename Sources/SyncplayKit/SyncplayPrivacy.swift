import Crypto
import Foundation

/// How much of a file's name or size a Syncplay client tells the room (Syncplay's
/// `filenamePrivacyMode` / `filesizePrivacyMode`).
public enum SyncplayPrivacy: String, Sendable, CaseIterable {
    /// As it is.
    case sendRaw = "raw"
    /// A 12-hex-digit SHA-256 prefix: others with the same file can tell, nobody can read it.
    case sendHashed = "hashed"
    /// Nothing: a placeholder name, size 0.
    case doNotSend = "none"

    /// The name Syncplay shows for a hidden file.
    public static let hiddenFilename = "**Hidden filename**"
    /// Hex digits kept of a SHA-256 (Syncplay's choice).
    static let hashDigits = 12
    /// Characters Syncplay strips from a name before hashing it, so "My.Film (1).mkv" and
    /// "My Film 1 mkv" hash alike.
    static let strippedCharacters = Set("-~_.[](): ")

    /// The file as announced under these modes for its name and size.
    public static func announce(name: String, duration: Double, size: Int64,
                                nameMode: SyncplayPrivacy, sizeMode: SyncplayPrivacy) -> SyncplayFile {
        let shownName = switch nameMode {
        case .sendRaw: name
        case .sendHashed: hashFilename(name)
        case .doNotSend: hiddenFilename
        }
        let shownSize: SyncplayFile.Size = switch sizeMode {
        case .sendRaw: .bytes(size)
        case .sendHashed: .hashed(hashFilesize(size))
        case .doNotSend: .bytes(0)
        }
        return SyncplayFile(name: shownName, duration: duration, size: shownSize)
    }

    /// Syncplay's name hash: percent-decoded (a URL's last path component only), the characters
    /// ``strippedCharacters`` removed, SHA-256 of the UTF-8, first 12 hex digits.
    public static func hashFilename(_ name: String) -> String {
        hexPrefix(SHA256.hash(data: Data(strippedFilename(name).utf8)))
    }

    /// Syncplay's size hash: SHA-256 of the decimal size, first 12 hex digits.
    public static func hashFilesize(_ size: Int64) -> String {
        hexPrefix(SHA256.hash(data: Data(String(size).utf8)))
    }

    /// The name as Syncplay compares it: decoded, a URL's last component, without separators.
    public static func strippedFilename(_ name: String) -> String {
        var decoded = name.removingPercentEncoding ?? name
        if name.contains("://") {
            let last = decoded.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? decoded
            decoded = last.removingPercentEncoding ?? last
        }
        return String(decoded.filter { !strippedCharacters.contains($0) })
    }

    /// True when two announced names may be the same file (raw or hashed on either side), as
    /// Syncplay compares them.
    public static func sameFilename(_ a: String, _ b: String) -> Bool {
        if a == b || strippedFilename(a).lowercased() == strippedFilename(b).lowercased() { return true }
        return hashFilename(a) == b || a == hashFilename(b)
    }

    /// The server password as a Syncplay client sends it: MD5 hex of the UTF-8.
    public static func passwordDigest(_ password: String) -> String {
        Insecure.MD5.hash(data: Data(password.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func hexPrefix<D: Digest>(_ digest: D) -> String {
        String(digest.map { String(format: "%02x", $0) }.joined().prefix(hashDigits))
    }
}
