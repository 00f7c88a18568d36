import Foundation
import PlayerCore
import StoryKit

/// What `tandem stories` prints: one JSON line per navigator event with `--json`, else short
/// human lines on stderr ("story 2/5: beach (first frame after 31 ms)").
struct StoryEventOutput: Sendable {
    let json: Bool
    /// Host time the command started; events carry seconds since then.
    let started: Double
    let clock = MonotonicTimeSource()

    func print(_ event: StoryEvent) {
        let t = (clock.now() - started).roundedTo(3)
        switch event {
        case .storyStarted(let indicator, let title):
            emit(["event": "storyStarted", "index": indicator.index, "count": indicator.count, "title": title], t,
                 human: "story \(indicator.index + 1)/\(indicator.count): \(title)")
        case .firstFrame(let index, let latency):
            emit(["event": "firstFrame", "index": index, "latencySeconds": latency.roundedTo(6)], t,
                 human: "  first frame of story \(index + 1) after \(Int((latency * 1000).rounded())) ms")
        case .posterShown(let index, let source):
            emit(["event": "posterShown", "index": index, "source": source.rawValue], t, human: nil)
        case .transitionBegan(let from, let to):
            emit(["event": "transitionBegan", "from": from, "to": to], t, human: nil)
        case .transitionCommitted(let from, let to):
            emit(["event": "transitionCommitted", "from": from, "to": to], t, human: nil)
        case .transitionCancelled(let from, let to):
            emit(["event": "transitionCancelled", "from": from, "to": to], t, human: "  swipe to story \(to + 1) cancelled")
        case .livePlayers(let count):
            emit(["event": "livePlayers", "count": count], t, human: nil)
        case .progress(let indicator):
            emit(["event": "progress", "index": indicator.index, "count": indicator.count,
                  "progress": indicator.progress.roundedTo(3)], t, human: nil)
        case .storyFailed(let index, let reason):
            emit(["event": "storyFailed", "index": index, "reason": reason], t, human: "  story \(index + 1) cannot play: \(reason)")
        case .finished:
            emit(["event": "finished"], t, human: "all stories watched")
        }
    }

    func summary(_ fields: [String: Any]) {
        var object = fields
        object["event"] = "end"
        emit(object, (clock.now() - started).roundedTo(3), human: nil)
    }

    private func emit(_ object: [String: Any], _ t: Double, human: String?) {
        if json {
            var line = object
            line["t"] = t
            guard let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
            FileHandleOutput.standardOutput.write(String(decoding: data, as: UTF8.self) + "\n")
        } else if let human {
            FileHandleOutput.standardError.write(human + "\n")
        }
    }
}

extension Double {
    func roundedTo(_ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (self * scale).rounded() / scale
    }
}
