import PartyKit

/// `--script "play@1,pause@5,seek:10@7,rate:1.5@9,item:1@12,live@20"`: host commands at seconds
/// after joining (`live`: the live item's hold behind the edge, as the End key).
package struct PartyScript: Sendable {
    package struct Step: Sendable {
        package var at: Double
        /// A party command, or nil for `live` (the member works out its seek).
        package var action: Command.Action?
        package var value: Double?
    }

    /// The step that is not a party command of its own.
    static let liveStep = "live"

    package var steps: [Step]

    package init(parsing text: String) throws {
        steps = try text.split(separator: ",").map { part in
            let pieces = part.split(separator: "@")
            guard pieces.count == 2, let at = Double(pieces[1]), at.isFinite, at >= 0 else { throw ScriptError(part: String(part)) }
            let command = pieces[0].split(separator: ":")
            if command[0] == Self.liveStep, command.count == 1 { return Step(at: at, action: nil, value: nil) }
            guard let action = Command.Action(rawValue: String(command[0])) else { throw ScriptError(part: String(part)) }
            let value = command.count > 1 ? Double(command[1]) : nil
            if command.count > 1, !(value?.isFinite ?? false) { throw ScriptError(part: String(part)) }
            return Step(at: at, action: action, value: value)
        }.sorted { $0.at < $1.at }
    }

    package struct ScriptError: Error, CustomStringConvertible {
        package let part: String
        package var description: String { "bad script step \"\(part)\": expected ACTION[:VALUE]@SECONDS, e.g. pause@5 or seek:10@7" }
    }
}
