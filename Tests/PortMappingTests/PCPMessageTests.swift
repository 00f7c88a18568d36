import Testing
@testable import PortMapping

/// PCP's MAP messages against RFC 6887's layouts, byte for byte.
@Suite struct PCPMessageTests {
    static let nonce: [UInt8] = Array(1...12)
    static let client = IPv4Address(192, 168, 77, 10)

    @Test func aMapRequestIsTheRFCsSixtyBytes() {
        let request = PCPMapRequest(lifetime: 600, clientAddress: Self.client, nonce: Self.nonce, internalPort: 7777, suggestedExternalPort: 7778)
        let expected: [UInt8] = [2, 1, 0, 0, 0, 0, 0x02, 0x58]            // version, MAP, reserved, lifetime
            + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 168, 77, 10]  // client, IPv4-mapped
            + Array(1...12)                                                  // nonce
            + [6, 0, 0, 0, 0x1E, 0x61, 0x1E, 0x62]                           // TCP, reserved, ports
            + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0]         // no suggested address
        #expect(request.encoded() == expected)
        #expect(request.encoded().count == PCP.mapMessageLength)
    }

    @Test func requestsAndResponsesRoundTrip() throws {
        let request = PCPMapRequest(lifetime: 0, clientAddress: Self.client, nonce: Self.nonce, internalPort: 1, suggestedExternalPort: 65535)
        #expect(try PCPMapRequest(decoding: request.encoded()) == request)
        let response = PCPMapResponse(resultCode: .success, lifetime: 3600, epoch: 12345, nonce: Self.nonce, internalPort: 7777,
                                      assignedExternalPort: 40000, assignedExternalAddress: IPv4Address(203, 0, 113, 1))
        let bytes = response.encoded()
        #expect(bytes.count == PCP.mapMessageLength)
        #expect(bytes[0...3] == [2, 0x81, 0, 0], "version, R bit and MAP, reserved, result")
        #expect(bytes[8..<12] == [0, 0, 0x30, 0x39], "the epoch, big-endian")
        #expect(try PCPMapResponse(decoding: bytes) == response)
        #expect(PCPReply(bytes) == .map(response))
    }

    @Test func aNATPMPGatewaysAnswerSaysToAskInNATPMP() {
        // RFC 6887 §9: a NAT-PMP server answers a version-2 request with version 0, "unsupported version".
        #expect(PCPReply([0, 0x81, 0, 1, 0, 0, 0, 9]) == .speaksNATPMPOnly)
        var unsupported = PCPMapResponse(resultCode: .unsupportedVersion, lifetime: 0, epoch: 0, nonce: Self.nonce, internalPort: 0,
                                         assignedExternalPort: 0, assignedExternalAddress: .any).encoded()
        #expect(PCPReply(unsupported) == .speaksNATPMPOnly)
        unsupported[3] = PCPResultCode.notAuthorized.rawValue
        guard case .map(let refused) = PCPReply(unsupported) else { Issue.record("not read as a MAP response"); return }
        #expect(refused.resultCode == .notAuthorized)
        #expect("\(refused.resultCode)" == "NOT_AUTHORIZED")
    }

    @Test func malformedMessagesNameTheirProblem() {
        let good = PCPMapRequest(lifetime: 1, clientAddress: Self.client, nonce: Self.nonce, internalPort: 1, suggestedExternalPort: 1).encoded()
        #expect { try PCPMapRequest(decoding: Array(good.prefix(59))) } throws: { "\($0)".contains("this is 59") }
        var wrongVersion = good
        wrongVersion[0] = 1
        #expect { try PCPMapRequest(decoding: wrongVersion) } throws: { "\($0)" == "PCP version 1, not 2" }
        var peer = good
        peer[1] = 2
        #expect { try PCPMapRequest(decoding: peer) } throws: { "\($0)" == "opcode 2, not MAP" }
        var ipv6Client = good
        ipv6Client[8] = 0x20
        #expect { try PCPMapRequest(decoding: ipv6Client) } throws: { "\($0)" == "the client address is not IPv4" }
        #expect { try PCPMapResponse(decoding: good) } throws: { "\($0)".contains("not a MAP response") }
        guard case .unreadable = PCPReply([2, 0x81, 0]) else { Issue.record("three bytes read as a reply"); return }
    }

    @Test func unknownResultCodesPrintTheirNumber() {
        #expect("\(PCPResultCode(rawValue: 13))" == "EXCESSIVE_REMOTE_PEERS")
        #expect("\(PCPResultCode(rawValue: 99))" == "result 99")
    }

    /// libnatpmp's and libminiupnpc's error codes, as what the gateway meant.
    @Test func libraryErrorsBecomeAnswers() {
        #expect(UPnPClient.answer(forError: 718) == .refused(MappingRefusal(.portTaken, "UPnP error 718 (ConflictInMappingEntry)")))
        #expect(UPnPClient.answer(forError: 725) == .refused(MappingRefusal(.permanentLeasesOnly, "UPnP error 725 (OnlyPermanentLeasesSupported)")))
        guard case .refused(let refusal) = UPnPClient.answer(forError: 606), refusal.kind == .other else {
            Issue.record("606 is a refusal"); return
        }
        guard case .noAnswer = UPnPClient.answer(forError: -3) else { Issue.record("an HTTP error is no answer"); return }
        guard case .noAnswer = NATPMPClient.answer(forError: -7) else { Issue.record("ICMP unreachable is no answer"); return }
        #expect(NATPMPClient.answer(forError: -51) == .refused(MappingRefusal(.other, "not authorized")))
    }
}
