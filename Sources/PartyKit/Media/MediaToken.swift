import Crypto
import Foundation

/// The credential for a party's media: HMAC-SHA256 of the party ID under the party key, as hex.
/// Members send it as `Authorization: Bearer TOKEN`, the browser page as the cookie
/// `tandem-media=TOKEN` (a `<video>` element cannot send a header); the key itself never goes into a
/// URL, a header or a cookie, and the token opens only that party's media (it cannot join the party).
public enum MediaToken {
    public static func derive(key: String, party: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("tandem-media:\(party)".utf8), using: SymmetricKey(data: Data(key.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// The header line libavformat's http protocol sends (its `headers` option).
    public static func header(key: String, party: String) -> String {
        "Authorization: Bearer \(derive(key: key, party: party))\r\n"
    }

    /// The cookie the browser page sets for the media path of its party.
    public static let cookieName = "tandem-media"

    /// The media token of a request: its `Authorization: Bearer` header's, else its `tandem-media`
    /// cookie's; nil when it carries neither (a player with no credential, not a guess).
    public static func presented(authorization: String?, cookies: [String]) -> String? {
        if let authorization { return authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst("Bearer ".count)) : "" }
        for header in cookies {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// Whether `presented` (from ``presented(authorization:cookies:)``) is `token`; compared in constant time.
    public static func matches(presented: String?, token: String) -> Bool {
        guard let presented else { return false }
        return ConstantTime.equals(presented, token)
    }

    /// Whether `authorization` (the request's header value) carries `token`; compared in constant time.
    public static func matches(authorization: String?, token: String) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        return ConstantTime.equals(String(authorization.dropFirst("Bearer ".count)), token)
    }
}
