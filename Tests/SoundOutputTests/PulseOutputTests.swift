import FFmpegKit
import Foundation
import PlayerCore
import SoundOutput
import Synchronization
import Testing
import TestSupport

/// The PulseAudio output against a real PulseAudio server of the test's own (``PulseServer``): what
/// is recorded off the server is where each pull said it would be heard.
@Suite(.enabled(if: PulseServer.isInstalled, "needs Debian's pulseaudio (scripts/test.sh installs it)"))
struct PulseOutputTests {
    /// Clicks this close (median) were placed by the delay each output reports: well under the 150 ms
    /// the deeper output queues more, well over what a loaded 2-core machine adds.
    static let heardTogether = 0.04

    /// Two outputs, one keeping 150 ms more queued (a Bluetooth headset, an HDMI TV, a busy server),
    /// each placing a click every half second on the host clock by the delay it reports: recorded
    /// together, the clicks coincide. (Taken as one SDL buffer, as before, the deeper output's were
    /// heard 150 ms late.)
    @Test func clicksPlacedByTheReportedDelayAreHeardTogether() async throws {
        let server = try await PulseServer()
        defer { Task { await server.stop() } }
        let recording = server.folder.path("rec.raw")
        let recorder = try server.record(to: recording)
        let start = ClickSource.now() + 0.5
        let shallow = try StreamSoundDevice.pulse(preferredChannels: 1, place: PulsePlace(server: server.address, sink: PulseServer.leftSink, buffer: 0.03),
                                         warn: { _ in })
        let deep = try StreamSoundDevice.pulse(preferredChannels: 1, place: PulsePlace(server: server.address, sink: PulseServer.rightSink, buffer: 0.18),
                                      warn: { _ in })
        let sources = ClickRecording.play(on: [shallow, deep], from: start)
        // Eight clicks on each side, recorded (the deep output's last click comes out 180 ms later).
        try await waitUntil("eight clicks played", within: 30) { sources.allSatisfy { $0.clicksWritten >= 9 } }
        try await waitUntil("the deep output to report its delay") { (deep.output?.reportedDelay ?? 0) > 0.06 }
        let delays = (shallow.output?.reportedDelay ?? 0, deep.output?.reportedDelay ?? 0)
        let lags = try await ClickRecording.lags(recording, recorder: recorder, stopping: [shallow, deep])
        #expect(delays.1 - delays.0 > 0.05, "the outputs buffer differently: \(delays)")
        #expect(lags.count >= 6, "clicks found on both sides: \(lags)")
        let worst = lags.map(abs).max() ?? .infinity
        print("heard apart (ms):", ClickRecording.milliseconds(lags), "delays", delays)
        // Under 0.5 ms on a quiet machine (the precision is measured in Benchmarks/heard-seen.sh). Under
        // load (another build, the parallel suite) the 30 ms output underruns now and then, which throws
        // clicks off by tens of ms, and the median read 12 ms once. The claim is the 150 ms the deep
        // output would be heard late, every click, if its delay were not counted.
        let median = ClickRecording.median(lags)
        #expect(median < Self.heardTogether, "heard apart by \(median * 1000) ms (median), up to \(worst * 1000) ms: \(ClickRecording.milliseconds(lags))")
    }

    /// A stream moved to another sink mid-play (`pactl move-sink-input`, as a desktop's sound settings
    /// move it when a headset connects): the output names its new sink, plays on without a loss or a
    /// reopening, and its clicks are heard on the new sink where a reference output's are.
    @Test func aStreamMovedMidPlayIsHeardOnTimeOnItsNewSink() async throws {
        let server = try await PulseServer()
        defer { Task { await server.stop() } }
        // A second mono sink on the recording's right channel.
        try await server.pactl(["load-module", "module-remap-sink", "sink_name=right2", "master=\(PulseServer.recordingSink)",
                                "channels=1", "master_channel_map=front-right", "channel_map=mono", "remix=no"])
        let recording = server.folder.path("rec.raw")
        let recorder = try server.record(to: recording)
        let warnings = Mutex<[String]>([])
        let start = ClickSource.now() + 0.5
        let reference = try StreamSoundDevice.pulse(preferredChannels: 1, place: PulsePlace(server: server.address, sink: PulseServer.leftSink),
                                                    warn: { _ in })
        let moving = try StreamSoundDevice.pulse(preferredChannels: 1, place: PulsePlace(server: server.address, sink: PulseServer.rightSink,
                                                                                        buffer: 0.12),
                                                 warn: { line in warnings.withLock { $0.append(line) } })
        let sources = ClickRecording.play(on: [reference, moving], from: start)
        try await waitUntil("clicks before the move", within: 30) { sources[1].clicksWritten >= 3 }
        #expect(moving.output?.device == PulseServer.rightSink)

        let sinks = try await server.pactl(["list", "short", "sinks"]).split(separator: "\n").map { $0.split(separator: "\t") }
        let rightIndex = try #require(sinks.first { $0.count > 1 && $0[1] == Substring(PulseServer.rightSink) }?.first)
        let inputs = try await server.pactl(["list", "short", "sink-inputs"]).split(separator: "\n").map { $0.split(separator: "\t") }
        let input = try #require(inputs.first { $0.count > 1 && $0[1] == rightIndex }?.first)
        try await server.pactl(["move-sink-input", String(input), "right2"])
        try await waitUntil("the output to name its new sink") { moving.output?.device == "right2" }
        let moved = sources[1].clicksWritten
        try await waitUntil("clicks after the move", within: 30) { sources[1].clicksWritten >= moved + 6 }
        let lags = try await ClickRecording.lags(recording, recorder: recorder, stopping: [reference, moving], after: .milliseconds(300))
        print("moved stream heard after the reference (ms):", ClickRecording.milliseconds(lags))
        let after = Array(lags.suffix(5))
        #expect(after.count == 5, "clicks on both sides after the move: \(lags)")
        let median = ClickRecording.median(after)
        #expect(median < Self.heardTogether, "after the move, heard apart by \(median * 1000) ms (median): \(lags)")
        #expect(warnings.withLock { $0 }.isEmpty, "no loss, no reopening: \(warnings.withLock { $0 })")
    }

    /// No server: a clear error naming PulseAudio, and the caller goes on to the next output.
    @Test func noServerIsAClearError() throws {
        let missing = "unix:\(temporarySocketPath("no-pulse"))"
        #expect {
            try StreamSoundDevice.pulse(place: PulsePlace(server: missing), warn: { _ in })
        } throws: { error in
            "\(error)".hasPrefix("PulseAudio: ")
        }
    }

    /// The server dies mid-play: one warning, the player is still pulled (paced without sound), and
    /// when the server is back, sound is heard again.
    @Test func aServerThatDiesAndComesBack() async throws {
        let server = try await PulseServer()
        defer { Task { await server.stop() } }
        let warnings = Mutex<[String]>([])
        let sink = try StreamSoundDevice.pulse(preferredChannels: 1, place: PulsePlace(server: server.address, sink: PulseServer.leftSink),
                                               warn: { line in warnings.withLock { $0.append(line) } })
        defer { sink.stop() }
        let lost = try await expectSoundLostAndBack(server, sink, warnings: warnings)
        #expect(lost?.contains("the sound server") == true, "\(warnings.withLock { $0 })")
    }
}
