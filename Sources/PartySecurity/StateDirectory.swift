import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder where Tandem keeps what must outlive a run: the server's self-signed certificate and key,
/// and the fingerprints of known servers. Created 0700; every file in it written 0600.
public struct StateDirectory: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_STATE_HOME/tandem`, else `~/.local/state/tandem`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("tandem").path
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/tandem").path
    }

    /// The full path of `name` in this folder.
    public func file(_ name: String) -> String {
        URL(fileURLWithPath: path).appendingPathComponent(name).path
    }

    /// Creates the folder (and its parents) if needed, readable by its owner only.
    public func prepare() throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw SecurityError.stateFolder(path, "cannot create it: \(error.localizedDescription)")
        }
    }

    /// The contents of `name`, or nil if it does not exist.
    public func read(_ name: String) throws -> Data? {
        let path = file(name)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw SecurityError.stateFolder(path, "cannot read it: \(error.localizedDescription)")
        }
    }

    /// Writes `data` to `name` (replacing it), created 0600 before any byte is written.
    public func write(_ data: Data, to name: String) throws {
        try prepare()
        let target = file(name)
        let temporary = target + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SecurityError.stateFolder(temporary, "cannot create it: \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        do {
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            guard fsync(fd) == 0 else { throw SecurityError.stateFolder(temporary, String(cString: strerror(errno))) }
        } catch {
            unlink(temporary)
            throw SecurityError.stateFolder(temporary, "cannot write it: \(error.localizedDescription)")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SecurityError.stateFolder(target, "cannot write it: \(reason)")
        }
    }
}
