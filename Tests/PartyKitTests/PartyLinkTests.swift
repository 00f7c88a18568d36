import Foundation
import Testing
@testable import PartyKit

@Suite struct PartyLinkTests {
    /// The reason a link was refused, or nil when it parsed.
    private func refusal(_ text: String) -> String? {
        do {
            _ = try PartyLink(parsing: text)
            return nil
        } catch {
            switch error {
            case .invalid(let link, let why):
                #expect(link == text)
                return why
            }
        }
    }

    @Test func parsesAValidLink() throws {
        let link = try PartyLink(parsing: "tandem://party.example.com:7070/party/brave-otter-42?key=abc123")
        #expect(link.host == "party.example.com")
        #expect(link.port == 7070)
        #expect(link.party == "brave-otter-42")
        #expect(link.key == "abc123")
        #expect(link.path == "/party/brave-otter-42")
        #expect(link == PartyLink(host: "party.example.com", port: 7070, party: "brave-otter-42", key: "abc123"))
    }

    @Test func parsesIPv4AndExtraQueryItems() throws {
        let link = try PartyLink(parsing: "tandem://192.168.1.20:1/party/p?x=1&key=k&y=2")
        #expect(link.host == "192.168.1.20")
        #expect(link.port == 1)
        #expect(link.key == "k")
        let top = try PartyLink(parsing: "tandem://h:65535/party/p?key=k")
        #expect(top.port == 65535)
    }

    /// The host must come out without its brackets: it is handed to the socket layer as is.
    @Test func parsesIPv6HostInBrackets() throws {
        let link = try PartyLink(parsing: "tandem://[::1]:7070/party/calm-seal-17?key=s3cret")
        #expect(link.host == "::1")
        #expect(link.port == 7070)
        #expect(link.party == "calm-seal-17")
        #expect(link.key == "s3cret")
        #expect(link.description == "tandem://[::1]:7070/party/calm-seal-17?key=s3cret")
    }

    @Test func descriptionFormatsTheLink() {
        #expect(PartyLink(host: "h.example", port: 80, party: "p", key: "k").description == "tandem://h.example:80/party/p?key=k")
        #expect(PartyLink(host: "fe80::1", port: 9, party: "p", key: "k").description == "tandem://[fe80::1]:9/party/p?key=k")
    }

    @Test(arguments: [
        PartyLink(host: "localhost", port: 7070, party: "brave-otter-42", key: "abcdefghijk2"),
        PartyLink(host: "10.0.0.1", port: 65535, party: "x", key: "y"),
        PartyLink(host: "::1", port: 7070, party: "calm-seal-17", key: "k"),
        PartyLink(host: "2001:db8::42", port: 443, party: "p", key: "k9"),
    ])
    func descriptionRoundTrips(_ link: PartyLink) throws {
        #expect(try PartyLink(parsing: link.description) == link)
    }

    @Test func generatedLinksRoundTrip() throws {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<200 {
            let link = PartyLink(host: "localhost", port: Int.random(in: 1...65535, using: &rng),
                                 party: PartyLink.generateID(using: &rng), key: PartyLink.generateKey(using: &rng))
            #expect(try PartyLink(parsing: link.description) == link)
        }
    }

    @Test(arguments: ["http://h:7070/party/p?key=k", "https://h:7070/party/p?key=k", "ws://h:7070/party/p?key=k",
                      "h:7070/party/p?key=k", "/party/p?key=k", ""])
    func wrongSchemeIsRefused(_ text: String) {
        #expect(refusal(text) == "expected tandem://HOST:PORT/party/ID?key=SECRET")
    }

    @Test(arguments: ["tandem://h/party/p?key=k", "tandem://h:/party/p?key=k", "tandem://h:0/party/p?key=k",
                      "tandem://h:65536/party/p?key=k", "tandem://h:70000/party/p?key=k"])
    func missingOrInvalidPortIsRefused(_ text: String) {
        #expect(refusal(text) == "no port")
    }

    @Test(arguments: ["tandem://h:7070/party/p", "tandem://h:7070/party/p?", "tandem://h:7070/party/p?key=",
                      "tandem://h:7070/party/p?key", "tandem://h:7070/party/p?secret=k", "tandem://h:7070/party/p?KEY=k"])
    func missingKeyIsRefused(_ text: String) {
        #expect(refusal(text) == "no key")
    }

    @Test(arguments: ["tandem://h:7070/parties/p?key=k", "tandem://h:7070/party?key=k", "tandem://h:7070/party/?key=k",
                      "tandem://h:7070/party/p/q?key=k", "tandem://h:7070/?key=k", "tandem://h:7070?key=k",
                      "tandem://h:7070/p?key=k", "tandem://h:7070/Party/p?key=k"])
    func badPathIsRefused(_ text: String) {
        #expect(refusal(text) == "path must be /party/ID")
    }

    @Test func missingHostIsRefused() {
        #expect(refusal("tandem://:7070/party/p?key=k") == "no host")
    }

    @Test func notAURLIsRefused() {
        #expect(refusal("tandem://[::1/party/p?key=k") != nil)
    }

    @Test func errorDescriptionNamesTheLinkAndTheReason() {
        #expect(PartyLink.ParseError.invalid("x", "no key").description == "invalid party link \"x\": no key")
    }

    @Test func generatedIDsAndKeysHaveTheDocumentedShapeAndAreReproducible() {
        var a = SplitMix64(seed: 7)
        var b = SplitMix64(seed: 7)
        var ids = Set<String>()
        for _ in 0..<300 {
            let id = PartyLink.generateID(using: &a)
            #expect(id == PartyLink.generateID(using: &b))
            let parts = id.split(separator: "-")
            #expect(parts.count == 3)
            #expect(parts[0].allSatisfy(\.isLowercase) && parts[1].allSatisfy(\.isLowercase))
            #expect(Int(parts[2]).map { (10...99).contains($0) } == true)
            ids.insert(id)

            let key = PartyLink.generateKey(using: &a)
            #expect(key == PartyLink.generateKey(using: &b))
            #expect(key.count == 20)
            // No look-alike characters (l, o, 0, 1) in keys people may type.
            #expect(key.allSatisfy { "abcdefghijkmnpqrstuvwxyz23456789".contains($0) })
        }
        #expect(ids.count > 200)
        var other = SplitMix64(seed: 8)
        var again = SplitMix64(seed: 7)
        #expect(PartyLink.generateKey(using: &other) != PartyLink.generateKey(using: &again))
    }

    @Test func generatedKeysCarryAtLeast96Bits() {
        #expect(Set(PartyLink.keyAlphabet).count == 32)
        #expect(Double(PartyLink.keyLength) * log2(Double(PartyLink.keyAlphabet.count)) >= 96)
        var rng = SystemRandomNumberGenerator()
        var keys = Set<String>()
        for _ in 0..<1000 { keys.insert(PartyLink.generateKey(using: &rng)) }
        #expect(keys.count == 1000)
    }

    static let fp = "q2C1x9dZ0bYkH3mJ7nP4rS6tV8wX-_aBcDeFgHiJkLm"

    @Test func fingerprintAndInsecureRoundTrip() throws {
        let pinned = try PartyLink(parsing: "tandem://h.example:7070/party/p?key=k&fp=\(Self.fp)")
        #expect(pinned.fingerprint == Self.fp)
        #expect(!pinned.insecure)
        #expect(pinned.description == "tandem://h.example:7070/party/p?key=k&fp=\(Self.fp)")
        #expect(pinned.httpOrigin == "https://h.example:7070")
        let plain = try PartyLink(parsing: "tandem+insecure://[::1]:7070/party/p?key=k")
        #expect(plain.insecure && plain.fingerprint == nil)
        #expect(plain.description == "tandem+insecure://[::1]:7070/party/p?key=k")
        #expect(plain.httpOrigin == "http://[::1]:7070")
        #expect(try PartyLink(parsing: "tandem://h:1/party/p?key=k").fingerprint == nil)
    }

    @Test(arguments: ["tandem://h:7070/party/p?key=k&fp=abc", "tandem://h:7070/party/p?key=k&fp=",
                      "tandem://h:7070/party/p?key=k&fp=\(String(repeating: "+", count: 43))"])
    func malformedFingerprintIsRefused(_ text: String) {
        #expect(refusal(text)?.hasPrefix("fp must be") == true)
    }

    @Test func insecureLinkWithAFingerprintIsRefused() {
        #expect(refusal("tandem+insecure://h:7070/party/p?key=k&fp=\(Self.fp)") == "an insecure link has no fp")
    }
}
