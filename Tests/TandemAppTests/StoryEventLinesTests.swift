import Foundation
import MPVIPC
import MediaTime
import StoryKit
import Testing
@testable import TandemApp

/// `tandem stories --json` as README.md documents it.
@Suite struct StoryEventLinesTests {
    /// Every line carries its kind and `t`.
    struct Line: Decodable {
        var event: String
        var t: Double
    }

    @Test func everyNavigatorEventIsOneLineWithItsFields() throws {
        let recorder = LineRecorder()
        let output = StoryEventOutput(json: true, started: MonotonicTimeSource().now(), lines: recorder.writer)
        let events: [StoryEvent] = [
            .storyStarted(StoryIndicator(index: 1, count: 5, progress: 0), title: "beach/sunset"),
            .firstFrame(index: 1, latency: 0.0312344),
            .posterShown(index: 2, source: .keyframe),
            .transitionBegan(from: 1, to: 2),
            .transitionCommitted(from: 1, to: 2),
            .transitionCancelled(from: 2, to: 3),
            .livePlayers(2),
            .progress(StoryIndicator(index: 2, count: 5, progress: 0.12345)),
            .storyFailed(index: 3, reason: "cannot open /x/y.mp4"),
            .finished,
        ]
        events.forEach(output.print)
        output.summary(["stories": 5, "started": 4, "failed": 1, "peakLivePlayers": 2, "leakedThreads": 0])

        expectWellFormed(recorder)
        let lines = try recorder.decoded(Line.self)
        #expect(lines.map(\.event) == ["storyStarted", "firstFrame", "posterShown", "transitionBegan", "transitionCommitted",
                                       "transitionCancelled", "livePlayers", "progress", "storyFailed", "finished", "end"])
        #expect(lines.allSatisfy { $0.t >= 0 })
        let values = recorder.values
        #expect(values[0]["index"] == 1 && values[0]["count"] == 5 && values[0]["title"] == "beach/sunset")
        #expect(values[1]["latencySeconds"] == 0.031234)
        #expect(values[2]["source"] == "keyframe")
        #expect(values[3]["from"] == 1 && values[3]["to"] == 2)
        #expect(values[6]["count"] == 2)
        #expect(values[7]["progress"] == 0.123)
        #expect(values[8]["reason"] == "cannot open /x/y.mp4")
        #expect(values[10]["peakLivePlayers"] == 2 && values[10]["stories"] == 5 && values[10]["leakedThreads"] == 0)
        #expect(!recorder.lines.joined().contains(#"\/"#))
    }

    @Test func linesHaveSortedKeys() {
        let line = JSONLineWriter.line(StoryEventLine(t: 1.5, body: .event(.transitionBegan(from: 0, to: 1))))
        #expect(line == #"{"event":"transitionBegan","from":0,"t":1.5,"to":1}"#)
    }
}
