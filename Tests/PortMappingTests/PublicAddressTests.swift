import TandemBase
import Testing
@testable import PortMapping

@Suite struct PublicAddressTests {
    @Test func hostAloneTakesTheServingPort() throws {
        let address = try PublicAddress(parsing: "party.example.org")
        #expect(address == PublicAddress(host: "party.example.org", port: nil))
        #expect(address.resolved(servingPort: 7777) == HostPort(host: "party.example.org", port: 7777))
    }

    @Test func hostAndPort() throws {
        #expect(try PublicAddress(parsing: "203.0.113.5:8000") == PublicAddress(host: "203.0.113.5", port: 8000))
        #expect(try PublicAddress(parsing: "[2001:db8::1]:8000") == PublicAddress(host: "2001:db8::1", port: 8000))
        #expect(try PublicAddress(parsing: "[2001:db8::1]") == PublicAddress(host: "2001:db8::1", port: nil))
        #expect(try PublicAddress(parsing: "2001:db8::1") == PublicAddress(host: "2001:db8::1", port: nil))
        #expect(try PublicAddress(parsing: "[2001:db8::1]:8000").description == "[2001:db8::1]:8000")
    }

    @Test(arguments: [
        ("", "is not HOST or HOST:PORT"), ("host:0", "must be a number from 1 to 65535"), ("host:70000", "from 1 to 65535"),
        ("host:http", "from 1 to 65535"), (":8000", "has no host"), ("a b", "is not HOST"), ("tandem://x:1/party", "is not HOST"),
        ("[::1]x", "is not [IPv6]"),
    ])
    func badInputNamesTheProblem(_ text: String, _ problem: String) {
        #expect { try PublicAddress(parsing: text) } throws: { "\($0)".contains(problem) }
    }
}
