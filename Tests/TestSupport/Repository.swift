import Foundation

/// Where the repository and its build are, for tests that read the bundled clips or run the built
/// `tandem` as a user would.
public enum Repository {
    /// The repository's root folder (this file is Tests/TestSupport/Repository.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The path of `name` in the bundled clips (assets/).
    public static func asset(_ name: String) -> String { root.appendingPathComponent("assets").appendingPathComponent(name).path }

    /// Thrown when no built `tandem` is found.
    public struct NotBuilt: Error, CustomStringConvertible {
        public var description: String { "no built tandem binary: build with `swift build --build-tests` first" }
    }

    /// The path of the built `tandem` executable: next to the test bundle (`.build/<config>/`),
    /// else the debug build.
    public static func tandem() throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem").path,
            root.appendingPathComponent(".build/debug/tandem").path,
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { throw NotBuilt() }
        return found
    }
}
