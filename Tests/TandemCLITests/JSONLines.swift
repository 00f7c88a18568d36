import Foundation

/// The JSON event lines the commands print with `--json`, read back.
enum JSONLines {
    /// Each line of `text` that is a JSON object.
    static func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// The objects whose "event" is `name`.
    static func events(_ name: String, in text: String) -> [[String: Any]] {
        objects(text).filter { $0["event"] as? String == name }
    }
}
