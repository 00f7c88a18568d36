import FFmpegKit
import Foundation
import PartySecurity

/// mpv's watch-later: where a file was left when the viewer quit, one small file per media file
/// in `$XDG_STATE_HOME/tandem/watch_later`, named by the MD5 of the file's absolute path (a URL as
/// given) in upper-case hex, as mpv names its entries; each holds mpv's `start=SECONDS` line.
package struct WatchLater: Sendable {
    package let directory: String

    /// `$XDG_STATE_HOME/tandem/watch_later`, else `~/.local/state/tandem/watch_later`.
    package static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        URL(fileURLWithPath: StateDirectory.defaultPath(environment: environment)).appendingPathComponent("watch_later").path
    }

    /// The entry's path for `item` (a path or a URL).
    package func entryPath(for item: String) -> String {
        let key = item.contains("://") ? item : URL(fileURLWithPath: item).standardizedFileURL.path
        let hash = Array(key.utf8).withUnsafeBytes { md5Hex($0) }.uppercased()
        return URL(fileURLWithPath: directory).appendingPathComponent(hash).path
    }

    /// Where `item` was left, if an entry says so.
    package func position(for item: String) -> Double? {
        guard let text = try? String(contentsOfFile: entryPath(for: item), encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("start=") {
            if let seconds = Double(line.dropFirst("start=".count)), seconds.isFinite, seconds >= 0 { return seconds }
        }
        return nil
    }

    /// Remembers `position` for `item`; the error names the entry.
    package func save(_ position: Double, for item: String) throws(WatchLaterError) {
        let path = entryPath(for: item)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            // mpv's form: the file named in a comment, then the options to resume with.
            try "# \(item)\nstart=\(String(format: "%.6f", position))\n".write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw WatchLaterError(path: path, reason: error.localizedDescription)
        }
    }

    /// Forgets `item` (it was played to its end).
    package func forget(_ item: String) { try? FileManager.default.removeItem(atPath: entryPath(for: item)) }
}

/// A watch-later entry that could not be written.
package struct WatchLaterError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String { "\(path): cannot save the position (\(reason))" }
}
