import Foundation
import Testing
import TestSupport

/// The page's pure parts (clock, connection machine, corrections, codecs, HMAC) under Node's test
/// runner: `Tests/PartyWebTests/js/page.test.mjs`.
@Suite struct PageScriptTests {
    static let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: node != nil, "needs Node.js (Debian's nodejs)"))
    func thePagesModulesPassTheirUnitTests() async throws {
        let tests = Repository.root.appendingPathComponent("Tests/PartyWebTests/js/page.test.mjs").path
        let result = try await ChildProcess.run(Self.node!, ["--test", tests], within: 60)
        let output = String(decoding: result.standardOutputBytes + result.standardErrorBytes, as: UTF8.self)
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("# fail 0"), "\(output)")
    }
}
