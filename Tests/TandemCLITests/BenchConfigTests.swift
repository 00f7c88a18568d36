import Foundation
import Testing
import TestSupport

/// `tandem bench` measures `tandem play` as it comes: the user's config file is not read by the
/// runs it starts (a config that breaks `tandem play` leaves the benchmark working).
@Suite(.serialized) struct BenchConfigTests {
    /// A config home whose tandem.conf makes every `tandem play` reading it fail.
    static func brokenConfigHome() throws -> URL {
        let home = try TemporaryFolder("remember").url
        let folder = home.appendingPathComponent("config/tandem")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "bogus=1\n".write(to: folder.appendingPathComponent("tandem.conf"), atomically: true, encoding: .utf8)
        return home
    }

    @Test(arguments: [["decode"], ["real-time"], ["first-frame"]])
    func benchRunsIgnoreTheUsersConfig(_ subcommand: [String]) async throws {
        let home = try Self.brokenConfigHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": home.appendingPathComponent("state").path]
        // The config does break a plain run: the benchmark would fail on it if it read it.
        let plain = try await RememberingCommandTests.run(["play", "--fast", Repository.asset("video-only.mp4")], environment: environment)
        #expect(plain.status == 1, "\(plain.stderr)")
        let bench = try await RememberingCommandTests.run(["bench"] + subcommand + ["--runs", "1", Repository.asset("video-only.mp4")],
                                                    environment: environment)
        #expect(bench.status == 0, "\(bench.stderr)")
        #expect(bench.stdout.contains("| tandem | reference | ratio |"), "\(bench.stdout)")
    }
}
