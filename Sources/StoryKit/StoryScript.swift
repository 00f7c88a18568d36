/// Timed navigation for headless runs and tests: `"next@2,prev@4.5,jump:3@6"`, each step an
/// action and the seconds after start when it happens.
///
/// Actions: `next`, `prev`, `jump:N`, `begin` / `begin>` (swipe toward the next), `begin<`
/// (toward the previous), `progress:F` (swipe progress 0…1), `commit`, `cancel`, `play`, `pause`,
/// `stop`, `quit`.
public struct StoryScript: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case next, previous, jump(Int), begin(StoryNavigator.Direction), progress(Double), commit, cancel,
             play, pause, stop, quit
    }

    public struct Step: Sendable, Equatable {
        public var at: Double
        public var action: Action
    }

    /// Steps in time order (steps at the same time keep the written order).
    public var steps: [Step]

    public init(parsing text: String) throws(ScriptError) {
        var steps: [Step] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: true) {
            let piece = part.trimmingCharacters(in: " ")
            guard let atSign = piece.lastIndex(of: "@"), let at = Double(piece[piece.index(after: atSign)...]),
                  at.isFinite, at >= 0, let action = Self.action(String(piece[..<atSign])) else {
                throw ScriptError(step: String(piece))
            }
            steps.append(Step(at: at, action: action))
        }
        self.steps = steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    static func action(_ text: String) -> Action? {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let argument = parts.count == 2 ? parts[1] : nil
        switch (parts.first ?? "", argument) {
        case ("next", nil): return .next
        case ("prev", nil), ("previous", nil): return .previous
        case ("jump", let n?): return Int(n).flatMap { $0 >= 0 ? .jump($0) : nil }
        case ("begin", nil), ("begin>", nil): return .begin(.forward)
        case ("begin<", nil): return .begin(.backward)
        case ("progress", let f?): return Double(f).flatMap { (0...1).contains($0) ? .progress($0) : nil }
        case ("commit", nil): return .commit
        case ("cancel", nil): return .cancel
        case ("play", nil): return .play
        case ("pause", nil): return .pause
        case ("stop", nil): return .stop
        case ("quit", nil): return .quit
        default: return nil
        }
    }

    public struct ScriptError: Error, CustomStringConvertible, Equatable {
        public let step: String
        public var description: String {
            "bad script step \"\(step)\": expected ACTION@SECONDS with ACTION one of next, prev, jump:N, begin, begin<, progress:F, commit, cancel, play, pause, stop, quit (e.g. next@2,jump:3@6)"
        }
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return s
    }
}
