/// Why a secure party connection or its setup failed, as a sentence naming the peer or the file.
public enum SecurityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's certificate is not the one the link (or `--server-fp`) pins.
    case fingerprintMismatch(address: String, expected: String, seen: String)
    /// A known server now shows another certificate (trust on first use refuses the change).
    case knownServerChanged(address: String, known: String, seen: String, file: String)
    /// A certificate or key file that cannot be used.
    case badFile(String, String)
    /// The state folder or a file in it.
    case stateFolder(String, String)
    /// A TLS setting that cannot be built.
    case configuration(String)
    /// Learning a server's certificate failed (a sentence naming the server).
    case probe(String)

    public var description: String {
        switch self {
        case .fingerprintMismatch(let address, let expected, let seen):
            "the certificate of \(address) does not match the link: expected fingerprint \(expected), "
                + "the server showed \(seen) (someone may be in between; ask the host for a fresh link)"
        case .knownServerChanged(let address, let known, let seen, let file):
            "REFUSED: the certificate of \(address) changed: remembered fingerprint \(known), now \(seen) "
                + "(someone may be in between; if the server really got a new certificate, remove its line from \(file) "
                + "or pass --server-fp \(seen))"
        case .badFile(let path, let why): "\(path): \(why)"
        case .stateFolder(let path, let why): "state folder \(path): \(why)"
        case .configuration(let why): "TLS setup failed: \(why)"
        case .probe(let why): why
        }
    }
}
