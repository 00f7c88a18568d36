import Foundation

/// A folder of a test's own under the temporary directory, with a unique name: tests running at the
/// same time never share one. Removed by ``remove()`` (usually in a `defer`).
public struct TemporaryFolder: Sendable {
    public let url: URL

    /// Creates `tandem-PREFIX-UUID` in the temporary directory.
    public init(_ prefix: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Deletes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A fresh UNIX socket path in /tmp, short enough for `sockaddr_un` (108 bytes) and unique to the call.
public func temporarySocketPath(_ prefix: String = "test") -> String {
    "/tmp/tandem-\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
}
