import Foundation
import PartySecurity
import SoundOutput
import Synchronization

/// The audio delay set for each sound output device (Ctrl+−/Ctrl++), kept from run to run in the
/// state folder, one `DEVICE=SECONDS` line each: a TV that delays its sound is set once.
package final class SavedAudioDelays: AudioDelayMemory {
    /// Devices kept at most (the least recently set go first): a laptop moving between docks,
    /// headsets and TVs has a handful.
    static let maximumDevices = 64

    private let path: String
    private let lock = Mutex<[(String, Double)]?>(nil)

    package init(path: String) { self.path = path }

    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        URL(fileURLWithPath: StateDirectory.defaultPath(environment: environment)).appendingPathComponent("audio-delays").path
    }

    package func delay(for output: String) -> Double? {
        lock.withLock { entries in
            if entries == nil { entries = Self.load(path) }
            return entries?.last { $0.0 == output }?.1
        }
    }

    package func remember(_ seconds: Double, for output: String) {
        let text: String = lock.withLock { entries in
            var list = (entries ?? Self.load(path)).filter { $0.0 != output }
            list.append((output, seconds))
            list = Array(list.suffix(Self.maximumDevices))
            entries = list
            return list.map { "\($0.0)=\($0.1)\n" }.joined()
        }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            printError("warning: \(path): cannot keep the audio delay (\(error.localizedDescription))")
        }
    }

    /// What the file keeps; lines that do not parse are skipped (a damaged file loses only them).
    static func load(_ path: String) -> [(String, Double)] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let equals = line.lastIndex(of: "="), let seconds = Double(line[line.index(after: equals)...]),
                  seconds.isFinite, abs(seconds) <= 10 else { return nil }
            return (String(line[..<equals]), seconds)
        }
    }
}
