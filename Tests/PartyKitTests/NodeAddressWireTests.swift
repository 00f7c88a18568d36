import Foundation
import PartyKit
import Testing

/// A node's address on the wire stays `{"host", "port", "fingerprint"}` (protocol 5), now that it is
/// a HostPort and a fingerprint inside.
@Suite struct NodeAddressWireTests {
    @Test func theWireFormIsHostPortAndFingerprint() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let plain = String(decoding: try encoder.encode(NodeAddress(host: "10.0.0.2", port: 7777)), as: UTF8.self)
        #expect(plain == #"{"host":"10.0.0.2","port":7777}"#)
        let fp = String(repeating: "A", count: 43)
        let pinned = String(decoding: try encoder.encode(NodeAddress(host: "::1", port: 7443, fingerprint: fp)), as: UTF8.self)
        #expect(pinned == #"{"fingerprint":"\#(fp)","host":"::1","port":7443}"#)
        let decoded = try JSONDecoder().decode(NodeAddress.self, from: Data(#"{"host":"n.example","port":9,"fingerprint":"\#(fp)"}"#.utf8))
        #expect(decoded == NodeAddress(host: "n.example", port: 9, fingerprint: fp))
        #expect(decoded.description == "n.example:9#\(fp)")
        #expect(NodeAddress(parsing: "[::1]:7443#\(fp)") == NodeAddress(host: "::1", port: 7443, fingerprint: fp))
    }
}
