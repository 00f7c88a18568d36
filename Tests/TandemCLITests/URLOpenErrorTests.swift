import Foundation
import Testing
import TestSupport
@testable import TandemCLI

/// `tandem play`, `probe` and `host` of a URL that cannot be opened: one line naming the URL and
/// the reason on stderr, and exit status 1 (the built `tandem` binary, run as a user would).
@Suite struct URLOpenErrorTests {
    /// Runs `tandem ARGUMENTS` to its end; its exit status and standard error.
    static func run(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let result = try await ChildProcess.runTandem(arguments)
        return (result.status, result.standardError)
    }

    @Test(arguments: [["play", "--headless"], ["probe"], ["host", "--headless", "--listen", "127.0.0.1:0", "--duration", "1"]])
    func aMissingURLExitsOneWithOneLine(command: [String]) async throws {
        let server = try NotFoundHTTPServer()
        defer { server.stop() }
        let url = server.baseURL + "/missing.mp4"
        let result = try await Self.run(command + [url])
        #expect(result.status == 1)
        #expect(result.stderr == "tandem: \(url): HTTP 404 not found\n")
    }

    @Test func aHostRefusesURLsOfOtherSchemes() {
        do {
            _ = try HostCommand.items(["rtmp://127.0.0.1/live/party.mp4"])
            Issue.record("an rtmp URL became a party item")
        } catch {
            #expect("\(error)" == "rtmp://127.0.0.1/live/party.mp4: only http and https URLs can be party items (every member opens the URL itself)")
        }
    }

    @Test func aHostsItemsAreItsFilesInOrder() throws {
        let items = try HostCommand.items([Repository.asset("party.mp4"), Repository.asset("h264-aac.mp4")])
        #expect(items.map(\.title) == ["party.mp4", "h264-aac.mp4"])
        #expect(items.allSatisfy { $0.url == nil && $0.identity.bytes != nil })
    }
}
