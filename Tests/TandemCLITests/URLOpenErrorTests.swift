import Foundation
import Testing
import TestSupport

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
}
