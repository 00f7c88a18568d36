import PartySecurity
import TandemBase

extension HostSession {
    /// How a host trusts its `--server`, and the fingerprint its link carries: plain with `--insecure`;
    /// pinned to `--server-fp`; verified (no fingerprint in the link) when the certificate chains to a
    /// trusted root and names the host; otherwise pinned to what the server shows, trusted on first use
    /// and remembered in the state folder (a changed fingerprint is refused).
    static func trust(server: HostPort, pinned: String?, ca: String?, insecure: Bool, state: StateDirectory) async throws
        -> (ServerTrust, String?) {
        if insecure { return (.insecure, nil) }
        if let pinned { return (.pinned(pinned), pinned) }
        let roots = ca.map { [$0] } ?? []
        if await ServerProbe.verifies(host: server.host, port: server.port, extraRoots: roots) {
            return (.verified(extraRoots: roots), nil)
        }
        let seen = try await ServerProbe.fingerprint(host: server.host, port: server.port)
        let known = KnownServers(state: state)
        if try known.check(address: server.description, seen: seen) == .remembered {
            printError("trusting \(server) on first use: fingerprint \(seen) (remembered in \(known.path))")
        }
        return (.pinned(seen), seen)
    }

    /// The identity a party served here shows: `--cert`/`--cert-key`, or the state folder's self-signed
    /// certificate (made on first use).
    static func identity(cert: String?, certKey: String?, state: StateDirectory) throws -> ServerIdentity {
        if let cert, let certKey { return try ServerIdentity.load(certificateFile: cert, keyFile: certKey) }
        return try ServerIdentity.loadOrCreate(in: state)
    }
}
