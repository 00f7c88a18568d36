#if canImport(Glibc)
import Glibc
#endif

/// PCP MAP requests to the gateway over a UDP socket of their own (blocking: run through
/// ``BlockingCall``). The socket is connected to the gateway's port 5351, so an ICMP "port
/// unreachable" (nothing listens there) ends the wait at once instead of after the timeout.
struct PCPClient: Sendable {
    /// The first wait for an answer, in seconds, then doubled for each retransmission: a gateway on
    /// the LAN answers within milliseconds. RFC 6887's 3 s initial wait suits a carrier's server, and
    /// would hold a host's start for the routers that do not speak PCP at all.
    static let firstWait = 0.25
    /// Requests sent before giving up (waits 0.25 s, then 0.5 s: 0.75 s in all).
    static let sends = 2

    let gateway: IPv4Address
    /// Names the mapping across renewals and its deletion (RFC 6887 §11.1).
    let nonce: [UInt8]

    /// Asks for `externalPort` → `internalPort` for `lifetime` seconds (0 deletes the mapping).
    func request(internalPort: Int, externalPort: Int, lifetime: Int) -> MappingAnswer {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return .noAnswer("no UDP socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var server = sockaddr_in()
        server.sin_family = sa_family_t(AF_INET)
        server.sin_port = in_port_t(UInt16(PCP.serverPort).bigEndian)
        server.sin_addr.s_addr = gateway.hostOrder.bigEndian
        let connected = withUnsafePointer(to: &server) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return .noAnswer("cannot reach \(gateway): \(String(cString: strerror(errno)))") }
        var own = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &own) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let client = IPv4Address(hostOrder: UInt32(bigEndian: own.sin_addr.s_addr))
        let request = PCPMapRequest(lifetime: UInt32(lifetime), clientAddress: client, nonce: nonce,
                                    internalPort: UInt16(internalPort), suggestedExternalPort: UInt16(externalPort)).encoded()
        var wait = Self.firstWait
        for _ in 0..<Self.sends {
            guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
                return .noAnswer("cannot send to \(gateway): \(String(cString: strerror(errno)))")
            }
            switch receive(fd, within: wait) {
            case .reply(let reply): return answer(reply, internalPort: internalPort)
            case .refused: return .noAnswer("nothing answers on port \(PCP.serverPort)")
            case .timedOut: wait *= 2
            }
        }
        return .noAnswer("no answer")
    }

    private enum Received { case reply(PCPReply), refused, timedOut }

    /// Waits up to `seconds` for a reply to this request (others are skipped).
    private func receive(_ fd: Int32, within seconds: Double) -> Received {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + seconds
        var buffer = [UInt8](repeating: 0, count: PCP.maximumLength)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = end - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            guard left > 0 else { return .timedOut }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32((left * 1000).rounded(.up)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return .timedOut }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 { return errno == ECONNREFUSED ? .refused : .timedOut }
            let reply = PCPReply(Array(buffer[0..<count]))
            if case .map(let response) = reply, response.nonce != nonce { continue }  // another mapping's
            if case .unreadable = reply { continue }
            return .reply(reply)
        }
    }

    private func answer(_ reply: PCPReply, internalPort: Int) -> MappingAnswer {
        switch reply {
        case .speaksNATPMPOnly:
            return .speaksNATPMPOnly
        case .unreadable(let error):
            return .noAnswer("an unreadable answer: \(error)")
        case .map(let response):
            guard response.resultCode == .success else { return .refused(MappingRefusal(.other, "PCP \(response.resultCode)")) }
            return .granted(PortMappingGrant(method: .pcp, externalAddress: response.assignedExternalAddress,
                                             externalPort: Int(response.assignedExternalPort), internalPort: internalPort,
                                             lifetime: Int(response.lifetime), epoch: response.epoch))
        }
    }
}
