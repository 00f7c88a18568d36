import CNatPMP
#if canImport(Glibc)
import Glibc
#endif

/// NAT-PMP requests through libnatpmp (Debian's libnatpmp-dev): the library fits NAT-PMP whole —
/// the two requests, their retransmission, the checks of the answer's source and version — so only
/// the wait is ours, bounded far below libnatpmp's own 9 retries (over a minute). Blocking: run
/// through ``BlockingCall``.
struct NATPMPClient: Sendable {
    /// How long each exchange (the external address, then the mapping) may take, in seconds: a
    /// gateway on the LAN answers within milliseconds; libnatpmp retransmits after 250 ms.
    static let exchangeBound = 0.75

    let gateway: IPv4Address

    /// The gateway's external address, then `externalPort` → `internalPort` for `lifetime` seconds.
    func request(internalPort: Int, externalPort: Int, lifetime: Int) -> MappingAnswer {
        var natpmp = natpmp_t()
        guard initnatpmp(&natpmp, 1, in_addr_t(gateway.hostOrder.bigEndian)) == 0 else {
            return .noAnswer("cannot open a socket to \(gateway)")
        }
        defer { closenatpmp(&natpmp) }
        guard sendpublicaddressrequest(&natpmp) >= 0 else { return .noAnswer("cannot send to \(gateway)") }
        let address: natpmpresp_t
        switch exchange(&natpmp) {
        case .success(let response): address = response
        case .failure(let answer): return answer
        }
        guard sendnewportmappingrequest(&natpmp, NATPMP_PROTOCOL_TCP, UInt16(internalPort), UInt16(externalPort),
                                        UInt32(lifetime)) >= 0 else { return .noAnswer("cannot send to \(gateway)") }
        switch exchange(&natpmp) {
        case .failure(let answer):
            return answer
        case .success(let mapping):
            let external = IPv4Address(hostOrder: UInt32(bigEndian: address.pnu.publicaddress.addr.s_addr))
            return .granted(PortMappingGrant(method: .natPMP, externalAddress: external,
                                             externalPort: Int(mapping.pnu.newportmapping.mappedpublicport), internalPort: internalPort,
                                             lifetime: Int(mapping.pnu.newportmapping.lifetime), epoch: mapping.epoch))
        }
    }

    /// Deletes the mapping of `internalPort` (RFC 6886 §3.4: lifetime 0, external port 0).
    func delete(internalPort: Int) {
        _ = request(internalPort: internalPort, externalPort: 0, lifetime: 0)
    }

    private enum Exchange {
        case success(natpmpresp_t)
        case failure(MappingAnswer)
    }

    /// Waits for the answer to the request just sent, retransmitted as libnatpmp schedules it.
    private func exchange(_ natpmp: inout natpmp_t) -> Exchange {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var response = natpmpresp_t()
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            let left = Self.exchangeBound - elapsed
            guard left > 0 else { return .failure(.noAnswer("no answer")) }
            var retry = timeval()
            getnatpmprequesttimeout(&natpmp, &retry)
            let retryIn = Double(retry.tv_sec) + Double(retry.tv_usec) / 1e6
            var poller = pollfd(fd: natpmp.s, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, Int32((min(max(retryIn, 0), left) * 1000).rounded(.up)))
            let result = readnatpmpresponseorretry(&natpmp, &response)
            if result == NATPMP_TRYAGAIN { continue }
            if result < 0 { return .failure(Self.answer(forError: result)) }
            return .success(response)
        }
    }

    /// libnatpmp's error codes, as what the gateway meant.
    static func answer(forError code: Int32) -> MappingAnswer {
        switch code {
        // NOGATEWAYSUPPORT: an ICMP "port unreachable" (or retries run out).
        case NATPMP_ERR_NOGATEWAYSUPPORT, NATPMP_ERR_RECVFROM, NATPMP_ERR_CONNECTERR, NATPMP_ERR_SENDERR:
            .noAnswer("nothing answers on port \(PCP.serverPort)")
        case NATPMP_ERR_UNSUPPORTEDVERSION: .refused(MappingRefusal(.other, "unsupported version"))
        case NATPMP_ERR_NOTAUTHORIZED: .refused(MappingRefusal(.other, "not authorized"))
        case NATPMP_ERR_NETWORKFAILURE: .refused(MappingRefusal(.other, "the router's network failed"))
        case NATPMP_ERR_OUTOFRESOURCES: .refused(MappingRefusal(.other, "out of resources"))
        case NATPMP_ERR_UNSUPPORTEDOPCODE: .refused(MappingRefusal(.other, "unsupported opcode"))
        default: .noAnswer("error \(code)")
        }
    }
}
