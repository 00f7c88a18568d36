import StoryKit

/// One line of `tandem stories --json` (README.md): a navigator event (`storyStarted`, `firstFrame`,
/// `posterShown`, `transitionBegan`/`Committed`/`Cancelled`, `livePlayers`, `progress`,
/// `storyFailed`, `finished`) or the `end` summary, each with `t`, seconds since the command started.
package struct StoryEventLine: Encodable, Sendable {
    package enum Body: Sendable, Equatable {
        case event(StoryEvent)
        /// The summary's counts by name (`stories`, `started`, `failed`, `peakLivePlayers`, …).
        case end([String: Int])
    }

    /// Seconds since the command started, to the millisecond.
    package var t: Double
    package var body: Body

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: EventField.self)
        try c.encode(number: t, forKey: "t")
        switch body {
        case .event(let event):
            try Self.encode(event, into: &c)
        case .end(let counts):
            try c.encode(event: "end")
            for (name, count) in counts where name != "event" && name != "t" {
                try c.encode(count, forKey: EventField(stringValue: name))
            }
        }
    }

    private static func encode(_ event: StoryEvent, into c: inout KeyedEncodingContainer<EventField>) throws {
        switch event {
        case .storyStarted(let indicator, let title):
            try c.encode(event: "storyStarted")
            try c.encode(indicator.index, forKey: "index")
            try c.encode(indicator.count, forKey: "count")
            try c.encode(title, forKey: "title")
        case .firstFrame(let index, let latency):
            try c.encode(event: "firstFrame")
            try c.encode(index, forKey: "index")
            try c.encode(number: latency.roundedTo(6), forKey: "latencySeconds")
        case .posterShown(let index, let source):
            try c.encode(event: "posterShown")
            try c.encode(index, forKey: "index")
            try c.encode(source.rawValue, forKey: "source")
        case .transitionBegan(let from, let to):
            try encodeTransition("transitionBegan", from: from, to: to, into: &c)
        case .transitionCommitted(let from, let to):
            try encodeTransition("transitionCommitted", from: from, to: to, into: &c)
        case .transitionCancelled(let from, let to):
            try encodeTransition("transitionCancelled", from: from, to: to, into: &c)
        case .livePlayers(let count):
            try c.encode(event: "livePlayers")
            try c.encode(count, forKey: "count")
        case .progress(let indicator):
            try c.encode(event: "progress")
            try c.encode(indicator.index, forKey: "index")
            try c.encode(indicator.count, forKey: "count")
            try c.encode(number: indicator.progress.roundedTo(3), forKey: "progress")
        case .storyFailed(let index, let reason):
            try c.encode(event: "storyFailed")
            try c.encode(index, forKey: "index")
            try c.encode(reason, forKey: "reason")
        case .finished:
            try c.encode(event: "finished")
        }
    }

    private static func encodeTransition(_ name: String, from: Int, to: Int,
                                         into c: inout KeyedEncodingContainer<EventField>) throws {
        try c.encode(event: name)
        try c.encode(from, forKey: "from")
        try c.encode(to, forKey: "to")
    }
}
