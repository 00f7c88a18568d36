/// `--insecure` said on the terminal: the one line that says a party runs without TLS.
package enum InsecureWarning {
    /// The line, as every party command prints it on standard error.
    package static let line = "WARNING: --insecure: no TLS; the party key, chat and media cross the network unencrypted"

    /// Prints ``line`` on standard error when `insecure`.
    package static func say(if insecure: Bool) {
        if insecure { printError(line) }
    }
}
