/// PCP's MAP messages (RFC 6887, §7 and §11): a request asks the gateway to forward an external
/// port to an internal one, its response says what was granted. Both directions encode and decode,
/// so the tests' gateway and the fuzz-minded unit tests use the same definitions as the client.
///
/// Why our own code: Debian's libnatpmp speaks NAT-PMP only, and there is no PCP client library in
/// Debian 12; a MAP request and its response are two fixed layouts of 60 bytes.
public enum PCP {
    /// The PCP version (RFC 6887). NAT-PMP is version 0 on the same port.
    public static let version: UInt8 = 2
    /// The gateway's PCP and NAT-PMP port.
    public static let serverPort = 5351
    /// The MAP opcode.
    public static let mapOpcode: UInt8 = 1
    /// IANA protocol number of TCP: a party is served over TCP.
    public static let tcp: UInt8 = 6
    /// A header (24 bytes) and MAP's opcode-specific part (36 bytes).
    public static let mapMessageLength = 60
    /// RFC 6887 §7: every PCP message is at most 1100 bytes; anything longer is not one.
    public static let maximumLength = 1100
}

/// PCP result codes (RFC 6887 §7.4).
public struct PCPResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = PCPResultCode(rawValue: 0)
    public static let unsupportedVersion = PCPResultCode(rawValue: 1)
    public static let notAuthorized = PCPResultCode(rawValue: 2)
    public static let noResources = PCPResultCode(rawValue: 8)
    public static let cannotProvideExternal = PCPResultCode(rawValue: 11)

    static let names = ["SUCCESS", "UNSUPP_VERSION", "NOT_AUTHORIZED", "MALFORMED_REQUEST", "UNSUPP_OPCODE", "UNSUPP_OPTION",
                        "MALFORMED_OPTION", "NETWORK_FAILURE", "NO_RESOURCES", "UNSUPP_PROTOCOL", "USER_EX_QUOTA",
                        "CANNOT_PROVIDE_EXTERNAL", "ADDRESS_MISMATCH", "EXCESSIVE_REMOTE_PEERS"]

    /// The RFC's name (`NOT_AUTHORIZED`), or the number.
    public var description: String { Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "result \(rawValue)" }
}

/// A PCP message that could not be read, naming what is wrong with it.
public struct PCPDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A MAP request: forward `suggestedExternalPort` (a wish; the gateway may give another) on the
/// gateway's external address to `internalPort` of `clientAddress`, for `lifetime` seconds (0 deletes).
public struct PCPMapRequest: Sendable, Equatable {
    public var lifetime: UInt32
    /// The client's own address as it sends from (the gateway checks it against the packet's source).
    public var clientAddress: IPv4Address
    /// 12 random bytes naming the mapping: renewals and the deletion repeat them.
    public var nonce: [UInt8]
    public var protocolNumber: UInt8 = PCP.tcp
    public var internalPort: UInt16
    public var suggestedExternalPort: UInt16
    public var suggestedExternalAddress: IPv4Address = .any

    public init(lifetime: UInt32, clientAddress: IPv4Address, nonce: [UInt8], internalPort: UInt16, suggestedExternalPort: UInt16) {
        precondition(nonce.count == 12, "a PCP mapping nonce is 12 bytes")
        self.lifetime = lifetime
        self.clientAddress = clientAddress
        self.nonce = nonce
        self.internalPort = internalPort
        self.suggestedExternalPort = suggestedExternalPort
    }

    /// The 60 bytes on the wire.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [PCP.version, PCP.mapOpcode, 0, 0]
        out += lifetime.bigEndianBytes
        out += clientAddress.mappedIPv6
        out += nonce
        out += [protocolNumber, 0, 0, 0]
        out += internalPort.bigEndianBytes + suggestedExternalPort.bigEndianBytes
        out += suggestedExternalAddress.mappedIPv6
        return out
    }

    /// Reads a MAP request (the tests' gateway's side).
    public init(decoding bytes: [UInt8]) throws(PCPDecodeError) {
        guard bytes.count >= PCP.mapMessageLength, bytes.count <= PCP.maximumLength, bytes.count % 4 == 0 else {
            throw PCPDecodeError("a PCP MAP request is 60 to 1100 bytes, a multiple of 4; this is \(bytes.count)")
        }
        guard bytes[0] == PCP.version else { throw PCPDecodeError("PCP version \(bytes[0]), not \(PCP.version)") }
        guard bytes[1] & 0x80 == 0 else { throw PCPDecodeError("a response, not a request") }
        guard bytes[1] == PCP.mapOpcode else { throw PCPDecodeError("opcode \(bytes[1] & 0x7F), not MAP") }
        guard let client = IPv4Address(mappedIPv6: bytes[8..<24]) else { throw PCPDecodeError("the client address is not IPv4") }
        lifetime = UInt32(bigEndianBytes: bytes[4..<8])
        clientAddress = client
        nonce = Array(bytes[24..<36])
        protocolNumber = bytes[36]
        internalPort = UInt16(bigEndianBytes: bytes[40..<42])
        suggestedExternalPort = UInt16(bigEndianBytes: bytes[42..<44])
        suggestedExternalAddress = IPv4Address(mappedIPv6: bytes[44..<60]) ?? .any
    }
}

/// A MAP response: what the gateway granted (or why not), with its epoch — the seconds since its
/// state began, which going back tells that it restarted and lost its mappings (RFC 6887 §8.5).
public struct PCPMapResponse: Sendable, Equatable {
    public var resultCode: PCPResultCode
    /// Seconds the mapping lasts (on an error: how long the error holds).
    public var lifetime: UInt32
    public var epoch: UInt32
    public var nonce: [UInt8]
    public var protocolNumber: UInt8 = PCP.tcp
    public var internalPort: UInt16
    public var assignedExternalPort: UInt16
    public var assignedExternalAddress: IPv4Address

    public init(resultCode: PCPResultCode, lifetime: UInt32, epoch: UInt32, nonce: [UInt8], internalPort: UInt16,
                assignedExternalPort: UInt16, assignedExternalAddress: IPv4Address) {
        self.resultCode = resultCode
        self.lifetime = lifetime
        self.epoch = epoch
        self.nonce = nonce
        self.internalPort = internalPort
        self.assignedExternalPort = assignedExternalPort
        self.assignedExternalAddress = assignedExternalAddress
    }

    /// The 60 bytes on the wire.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = [PCP.version, 0x80 | PCP.mapOpcode, 0, resultCode.rawValue]
        out += lifetime.bigEndianBytes + epoch.bigEndianBytes
        out += [UInt8](repeating: 0, count: 12)
        out += nonce
        out += [protocolNumber, 0, 0, 0]
        out += internalPort.bigEndianBytes + assignedExternalPort.bigEndianBytes
        out += assignedExternalAddress.mappedIPv6
        return out
    }

    /// Reads a MAP response.
    public init(decoding bytes: [UInt8]) throws(PCPDecodeError) {
        guard bytes.count >= PCP.mapMessageLength, bytes.count <= PCP.maximumLength else {
            throw PCPDecodeError("a PCP MAP response is 60 to 1100 bytes; this is \(bytes.count)")
        }
        guard bytes[0] == PCP.version else { throw PCPDecodeError("PCP version \(bytes[0]), not \(PCP.version)") }
        guard bytes[1] == 0x80 | PCP.mapOpcode else { throw PCPDecodeError("not a MAP response (opcode byte \(bytes[1]))") }
        resultCode = PCPResultCode(rawValue: bytes[3])
        lifetime = UInt32(bigEndianBytes: bytes[4..<8])
        epoch = UInt32(bigEndianBytes: bytes[8..<12])
        nonce = Array(bytes[24..<36])
        protocolNumber = bytes[36]
        internalPort = UInt16(bigEndianBytes: bytes[40..<42])
        assignedExternalPort = UInt16(bigEndianBytes: bytes[42..<44])
        assignedExternalAddress = IPv4Address(mappedIPv6: bytes[44..<60]) ?? .any
    }
}

/// What a datagram from the gateway's port 5351 is, to a PCP client.
public enum PCPReply: Sendable, Equatable {
    /// A MAP response.
    case map(PCPMapResponse)
    /// A version-0 (NAT-PMP) answer, or a PCP UNSUPP_VERSION: the gateway speaks NAT-PMP, not PCP
    /// (RFC 6887 §9), so the client asks again in NAT-PMP.
    case speaksNATPMPOnly
    /// Anything else: not a reply to this request.
    case unreadable(PCPDecodeError)

    public init(_ bytes: [UInt8]) {
        if bytes.count >= 4, bytes[0] == 0 {
            self = .speaksNATPMPOnly
        } else if bytes.count >= 4, bytes[0] == PCP.version, bytes[1] & 0x80 != 0,
                  PCPResultCode(rawValue: bytes[3]) == .unsupportedVersion {
            self = .speaksNATPMPOnly
        } else {
            do { self = .map(try PCPMapResponse(decoding: bytes)) } catch { self = .unreadable(error) }
        }
    }
}

extension FixedWidthInteger {
    /// The integer's bytes, most significant first (network order).
    var bigEndianBytes: [UInt8] { withUnsafeBytes(of: bigEndian) { Array($0) } }

    /// The integer from bytes most significant first.
    init(bigEndianBytes bytes: some Collection<UInt8>) {
        self = bytes.reduce(0) { $0 << 8 | Self($1) }
    }
}
