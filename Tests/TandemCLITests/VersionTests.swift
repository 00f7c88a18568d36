import Testing
@testable import TandemCLI
import PartyKit

struct VersionTests {
    @Test func versionNamesTheReleaseAndTheProtocol() async throws {
        let result = try await PartyTLSCommandTests.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "tandem \(Tandem.version) (party protocol \(PartyProtocol.version))\n", "\(result.stdout)")
    }
}
