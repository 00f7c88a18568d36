/// The headers every answer of the page carries.
public enum WebHeaders {
    /// The page runs only its own scripts and styles, talks only to its own origin (its WebSocket and
    /// the party's files), and cannot be framed: a clicked-through self-signed warning is the one risk
    /// left, which `--cert` removes. Its media element may also read any http(s) link: a party's item can
    /// be a web site's (a page link the host resolved, a stream), which every native member reads too.
    /// (An https page's http media is upgraded to https by the browser; no Referer goes with it.)
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob: https: http:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The headers of a page answer with `contentType`.
    public static func page(contentType: String) -> [(String, String)] {
        [("Content-Type", contentType),
         ("Content-Security-Policy", contentSecurityPolicy),
         ("X-Content-Type-Options", "nosniff"),
         ("Referrer-Policy", "no-referrer"),
         // The page is the binary's own: a new tandem serves new files at the same names.
         ("Cache-Control", "no-cache")]
    }
}
