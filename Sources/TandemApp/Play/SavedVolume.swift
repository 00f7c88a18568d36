import Foundation
import PartySecurity

/// The window's volume and mute, kept from one run of `tandem play` to the next in
/// `$XDG_STATE_HOME/tandem/volume` (`volume=80` and `mute=no` lines, mpv's option form).
package struct SavedVolume: Sendable, Equatable {
    package var volume: Int
    package var muted: Bool

    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        URL(fileURLWithPath: StateDirectory.defaultPath(environment: environment)).appendingPathComponent("volume").path
    }

    /// The saved levels; nil when none were saved (or the file is unreadable: the defaults then).
    package static func load(from path: String) -> SavedVolume? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var levels = SavedVolume(volume: 100, muted: false)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "volume": if let v = Int(parts[1]) { levels.volume = min(max(v, 0), 100) }
            case "mute": levels.muted = parts[1] == "yes"
            default: continue
            }
        }
        return levels
    }

    /// Writes the levels; a failure is a warning (the next run starts at the defaults).
    package func save(to path: String) {
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try "volume=\(volume)\nmute=\(muted ? "yes" : "no")\n".write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            printError("warning: \(path): cannot keep the volume (\(error.localizedDescription))")
        }
    }
}
