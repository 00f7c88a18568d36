import Testing
@testable import TandemCLI

/// `--no-port-mapping` and `--public-address` as a user types them: bad input is an error naming it.
@Suite struct ReachOptionsTests {
    static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try HostCommand.parse(arguments)
            return nil
        } catch {
            return HostCommand.message(for: error)
        }
    }

    @Test func aPublicAddressWithABadPortIsNamed() {
        #expect(Self.refusal(["a.mp4", "--public-address", "home.example.org:0"])
                == "--public-address: the port of \"home.example.org:0\" must be a number from 1 to 65535")
        #expect(Self.refusal(["a.mp4", "--public-address", ":8000"]) == "--public-address: \":8000\" has no host before its port")
        #expect(Self.refusal(["a.mp4", "--public-address", "home.example.org:8000", "--no-port-mapping"]) == nil)
    }

    @Test func theyAreForServingHereNotWithAServer() {
        for option in [["--no-port-mapping"], ["--public-address", "203.0.113.1"]] {
            #expect(Self.refusal(["a.mp4", "--server", "203.0.113.1:7777"] + option)
                    == "--no-port-mapping and --public-address are for serving the party here, not with --server")
        }
    }
}
