import Crypto
import Foundation

/// The credential for a party's media: HMAC-SHA256 of the party ID under the party key, as hex.
/// Members send it as `Authorization: Bearer TOKEN`; the key itself never goes into a URL or a
/// header, and the token opens only that party's media (it cannot join the party).
public enum MediaToken {
    public static func derive(key: String, party: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("tandem-media:\(party)".utf8), using: SymmetricKey(data: Data(key.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// The header line libavformat's http protocol sends (its `headers` option).
    public static func header(key: String, party: String) -> String {
        "Authorization: Bearer \(derive(key: key, party: party))\r\n"
    }

    /// Whether `authorization` (the request's header value) carries `token`; compared in constant time.
    public static func matches(authorization: String?, token: String) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        return ConstantTime.equals(String(authorization.dropFirst("Bearer ".count)), token)
    }
}
