import Foundation
import PartyKit
import Testing
import TestSupport

/// A real party on loopback with the built `tandem`: a host serving its file and a guest with no
/// copy (so it streams the host's file with the media token), both with `--json`. Neither the key
/// nor the media token appears anywhere in what they print, except the host's link line.
@Suite struct KeyLeakTests {
    /// A long, distinctive key, so any trace of it (or of its token) is found.
    static let key = "leaky-key-Zq7x91mWb3Tt"

    @Test func aPartyPrintsTheKeyOnlyInTheHostsLink() async throws {
        let party = "leak-check-\(Int.random(in: 1000...9999))"
        let token = MediaToken.derive(key: Self.key, party: party)
        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0", "--party", party, "--key", Self.key,
                                            "--script", "play@1,seek:2@2", "--duration", "12", Repository.asset("party.mp4")],
                                           standardError: .standardOutput)
        defer { host.terminate() }
        let linkLine = try await host.line(within: 60) { $0.contains("\"link\"") }
        let linkValue = try #require(JSONSerialization.jsonObject(with: Data(linkLine.utf8)) as? [String: Any])["link"] as? String
        let link = try #require(linkValue)
        #expect(link.contains(Self.key), "the host's link is the one place the key belongs")

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-media-\(party)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let guest = try ChildProcess.tandem(["join", "--headless", "--json", "--name", "Gus", "--media", empty.path, "--duration", "6", link],
                                            standardError: .standardOutput)
        defer { guest.terminate() }
        #expect(try await guest.exit(within: 60) == .exited(0))
        #expect(try await host.exit(within: 60) == .exited(0))

        let guestOutput = guest.standardOutput, hostOutput = host.standardOutput
        // The guest really streamed from the host (else the token was never used).
        #expect(guestOutput.contains("stream"), "the guest did not stream the party's copy:\n\(guestOutput)")
        #expect(guestOutput.contains("\"status\""))
        for (who, text) in [("host", hostOutput.replacingOccurrences(of: linkLine, with: "")), ("guest", guestOutput)] {
            #expect(!text.contains(Self.key), "\(who) printed the key:\n\(text)")
            #expect(!text.contains(token), "\(who) printed the media token:\n\(text)")
        }
        // The link line carries it twice: the tandem:// link, and the browser link (in its fragment).
        #expect(hostOutput.split(separator: "\n").filter { $0.contains(Self.key) }.count == 1, "the key appears only in the link line")
        #expect(linkLine.components(separatedBy: Self.key).count == 3 && linkLine.contains("#key=\(Self.key)"))
    }
}
