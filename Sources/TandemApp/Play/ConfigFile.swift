import Foundation

/// `~/.config/tandem/tandem.conf` (`$XDG_CONFIG_HOME/tandem/tandem.conf`): `tandem play`'s
/// options in mpv's config form, one `name=value` a line, the names those of the options
/// (`speed=1.5`, `save-position-on-quit`, `loop-file=yes`); `#` starts a comment. The options
/// go before the command line's, so the command line wins.
package struct ConfigFile: Sendable {
    /// Options that take no value: `name`, `name=yes` turn them on, `name=no` leaves them off.
    package static let flags: Set<String> = [
        "headless", "fast", "json", "loop-file", "loop-playlist", "shuffle", "save-position-on-quit",
        "no-resume-playback",
    ]
    /// Options a config file cannot hold: they are about one run (or its outputs), not a default.
    package static let refused: Set<String> = ["framemd5", "wav", "snapshot", "ipc", "config", "no-config"]

    /// A line that is not an option.
    package struct LineError: Error, CustomStringConvertible, Equatable {
        package let path: String
        package let line: Int
        package let message: String
        package var description: String { "\(path):\(line): \(message)" }
    }

    /// `$XDG_CONFIG_HOME/tandem/tandem.conf`, else `~/.config/tandem/tandem.conf`.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config").path
        return URL(fileURLWithPath: base).appendingPathComponent("tandem/tandem.conf").path
    }

    /// The command-line arguments `text` (the file at `path`) stands for. `isOption` says whether a
    /// name is one of the command's options (the caller's parser knows).
    package static func arguments(_ text: String, path: String, isOption: (String, String?) -> String?) throws(LineError) -> [String] {
        var arguments: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            line = Substring(line.trimmingCharacters(in: .whitespaces))
            guard !line.isEmpty else { continue }
            if line.hasPrefix("--") { line = line.dropFirst(2) }
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            var value = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
            // mpv lets values be quoted: name="a b".
            if let v = value, v.count >= 2, v.hasPrefix("\""), v.hasSuffix("\"") { value = String(v.dropFirst().dropLast()) }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw LineError(path: path, line: number, message: "expected name=value, got \"\(raw)\"")
            }
            guard !refused.contains(name) else {
                throw LineError(path: path, line: number, message: "\(name) is for the command line only")
            }
            if flags.contains(name) {
                switch value {
                case nil, "yes": arguments.append("--\(name)")
                case "no": break
                default: throw LineError(path: path, line: number, message: "\(name) takes yes or no, not \"\(value!)\"")
                }
                continue
            }
            guard let value, !value.isEmpty else {
                throw LineError(path: path, line: number, message: "\(name) needs a value (\(name)=VALUE)")
            }
            if let problem = isOption(name, value) { throw LineError(path: path, line: number, message: problem) }
            arguments.append("--\(name)=\(value)")
        }
        return arguments
    }
}
