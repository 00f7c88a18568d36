/// The headers every answer of the page carries.
public enum WebHeaders {
    /// The page runs only its own scripts and styles, talks only to its own origin (its WebSocket and
    /// media), and cannot be framed: a clicked-through self-signed warning is the one risk left, which
    /// `--cert` removes.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; "
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
