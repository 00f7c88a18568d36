import Foundation
import PlayerCore
import StoryKit

/// What `tandem stories` prints: one ``StoryEventLine`` per navigator event with `--json`, else
/// short human lines on stderr ("story 2/5: beach (first frame after 31 ms)").
package struct StoryEventOutput: Sendable {
    package let json: Bool
    /// Host time the command started; events carry seconds since then.
    package let started: Double
    package let clock = MonotonicTimeSource()
    package let lines: JSONLineWriter

    package init(json: Bool, started: Double, lines: JSONLineWriter = .standardOutput) {
        self.json = json
        self.started = started
        self.lines = lines
    }

    package func print(_ event: StoryEvent) {
        let human: String? = switch event {
        case .storyStarted(let indicator, let title): "story \(indicator.index + 1)/\(indicator.count): \(title)"
        case .firstFrame(let index, let latency): "  first frame of story \(index + 1) after \(Int((latency * 1000).rounded())) ms"
        case .transitionCancelled(_, let to): "  swipe to story \(to + 1) cancelled"
        case .storyFailed(let index, let reason): "  story \(index + 1) cannot play: \(reason)"
        case .finished: "all stories watched"
        case .posterShown, .transitionBegan, .transitionCommitted, .livePlayers, .progress: nil
        }
        emit(.event(event), human: human)
    }

    /// The `end` line: counts by name (`stories`, `started`, `failed`, `peakLivePlayers`, `leakedThreads`).
    package func summary(_ counts: [String: Int]) {
        emit(.end(counts), human: nil)
    }

    private func emit(_ body: StoryEventLine.Body, human: String?) {
        if json {
            lines.emit(StoryEventLine(t: (clock.now() - started).roundedTo(3), body: body))
        } else if let human {
            FileHandleOutput.standardError.write(human + "\n")
        }
    }
}

extension Double {
    package func roundedTo(_ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (self * scale).rounded() / scale
    }
}
