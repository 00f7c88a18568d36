import Glibc
import TandemBase

extension HostPort {
    /// Whether the system resolver knows the host (asked only after a failure, to name it).
    var resolves: Bool {
        var result: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, nil, &result)
        if let result { freeaddrinfo(result) }
        return code == 0
    }
}
