import Foundation
import PlayerCore
import Testing
import TestSupport
@testable import TandemApp

/// `tandem play --json` as README.md documents it.
@Suite struct PlayEventLinesTests {
    /// The documented `end` fields.
    typealias End = PlayEventLines.End
    /// Any line: its kind, plus the fields the other events carry.
    typealias Line = PlayEventLines.Line

    @Test func endSummaryHasTheDocumentedFieldsInSortedOrder() throws {
        let recorder = LineRecorder()
        let output = EventOutput(json: true, started: 0, statusLine: false, lines: recorder.writer)
        var stats = PlaybackStats()
        stats.videoFrames = 300
        stats.audioSamples = 480_000
        stats.droppedFrames = 2
        output.window(shownFrames: 298, skippedFrames: 1)
        // With display sync: the display's rate and the pictures shown a refresh late.
        output.window(shownFrames: 298, skippedFrames: 1, delayedFrames: 3, refreshRate: 1 / (1 / 59.9401))
        output.finished(stats: stats, mediaSeconds: 10.00049, wallSeconds: 10.1234)
        #expect(recorder.lines == [
            #"{"event":"window","shownFrames":298,"skippedFrames":1}"#,
            #"{"delayedFrames":3,"event":"window","refreshRate":59.94,"shownFrames":298,"skippedFrames":1}"#,
            #"{"audioSamples":480000,"droppedFrames":2,"durationSeconds":10,"event":"end","videoFrames":300,"wallSeconds":10.123,"warnings":0}"#,
        ])
        let end = try JSONDecoder().decode(End.self, from: Data(recorder.lines[2].utf8))
        #expect(end == End(event: "end", videoFrames: 300, audioSamples: 480_000, droppedFrames: 2,
                           durationSeconds: 10, wallSeconds: 10.123))
    }

    @Test func playerEventsBecomeLines() async throws {
        let file = Repository.asset("video-only.mp4")
        let player = try await Player.open(file, options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil))
        let recorder = LineRecorder()
        let output = EventOutput(json: true, started: 100, statusLine: false, lines: recorder.writer)
        output.opened(player)
        let (events, sink) = AsyncStream.makeStream(of: PlayerEvent.self)
        for event: PlayerEvent in [.stateChanged(.playing), .firstFrame(position: 0, hostTime: 100.25),
                                   .seekCompleted(position: 1.5), .warning("damaged packet in stream 0"),
                                   .framePresented(position: 1.6, hostTime: 101), .ended(PlaybackStats())] {
            sink.yield(event)
        }
        sink.finish()
        await output.follow(events, player: player)
        await player.close()

        expectWellFormed(recorder)
        let lines = try recorder.decoded(Line.self)
        #expect(lines.map(\.event) == ["open", "state", "firstFrame", "seeked", "warning", "ended"])
        #expect(lines[0].file == file)
        #expect(lines[0].video == true && lines[0].audio == false)
        #expect(lines[0].durationSeconds != nil)
        #expect(lines[1].state == "playing")
        #expect(lines[2].position == 0 && lines[2].sinceStartSeconds == 0.25)
        #expect(lines[3].position == 1.5)
        #expect(lines[4].message == "damaged packet in stream 0")
        // Paths are printed as they are: no "\/".
        #expect(recorder.lines[0].contains(#""file":"\#(file)""#))
    }

    @Test func unknownDurationIsNull() {
        let line = JSONLineWriter.line(PlayEvent.open(file: "/media/a b.mkv", durationSeconds: nil, video: true, audio: true))
        #expect(line == #"{"audio":true,"durationSeconds":null,"event":"open","file":"/media/a b.mkv","video":true}"#)
    }

    @Test func withoutJSONNothingIsPrinted() {
        let recorder = LineRecorder()
        let output = EventOutput(json: false, started: 0, statusLine: false, lines: recorder.writer)
        output.finished(stats: PlaybackStats(), mediaSeconds: 1, wallSeconds: 1)
        output.window(shownFrames: 1, skippedFrames: 0)
        #expect(recorder.lines.isEmpty)
    }
}
