import Foundation
import Testing
@testable import TandemCLI
@testable import TandemApp
@testable import TandemBench

/// `tandem play`, `probe` and `host` of a URL that cannot be opened: one line naming the URL and
/// the reason on stderr, and exit status 1 (the built `tandem` binary, run as a user would).
@Suite struct URLOpenErrorTests {
    /// The `tandem` executable next to the test bundle (`.build/<config>/`), else the debug build.
    static func binary() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem"),
            TestAssets.root.appendingPathComponent(".build/debug/tandem"),
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                            "no built tandem binary: build with `swift build --build-tests` first")
    }

    /// Runs `tandem ARGUMENTS`; its exit status and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: [["play", "--headless"], ["probe"], ["host", "--headless", "--listen", "127.0.0.1:0", "--duration", "1"]])
    func aMissingURLExitsOneWithOneLine(command: [String]) throws {
        let server = try NotFoundHTTPServer()
        defer { server.stop() }
        let url = server.baseURL + "/missing.mp4"
        let result = try Self.run(command + [url])
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
        let items = try HostCommand.items([TestAssets.path("party.mp4"), TestAssets.path("h264-aac.mp4")])
        #expect(items.map(\.title) == ["party.mp4", "h264-aac.mp4"])
        #expect(items.allSatisfy { $0.url == nil && $0.identity.bytes != nil })
    }
}
