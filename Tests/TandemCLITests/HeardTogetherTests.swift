import Foundation
import Testing
import TestSupport

/// What two party members are heard to play, recorded off a real PulseAudio server (not their clocks
/// read over IPC): a host and two headless guests with `--ao=pulse`, each guest on its own sink of
/// one stereo recording, one of them keeping 150 ms more queued (`PULSE_LATENCY_MSEC=150`, as a
/// Bluetooth headset, an HDMI TV or a busy server does). The clip clicks every half second; each
/// click's onset is found on both channels to the sample.
@Suite(.enabled(if: PulseServer.isInstalled, "needs Debian's pulseaudio (scripts/test.sh installs it)"))
struct HeardTogetherTests {
    /// Before the output asked the server for its delay, the deeper guest was heard 64–102 ms behind
    /// (p50 70 ms) for the whole party while its clock said it was in sync.
    @Test func twoMembersOnOutputsThatBufferDifferentlyAreHeardTogether() async throws {
        let folder = try TemporaryFolder("heard")
        defer { folder.remove() }
        let clip = folder.path("clicks.mkv")
        try await Self.makeClickClip(clip, seconds: 20)
        let server = try await PulseServer()
        defer { Task { await server.stop() } }

        let host = try ChildProcess.tandem(["host", "--headless", "--json", "--listen", "127.0.0.1:0",
                                            "--script", "play@2,pause@7,play@8,seek:2@10,rate:1.25@12,rate:1@14",
                                            "--duration", "19", clip], standardError: .standardOutput)
        defer { host.terminate() }
        let link = try await Self.link(of: host)
        var guests: [ChildProcess] = []
        defer { guests.forEach { $0.terminate() } }
        for (name, sink, extra) in [("Ann", PulseServer.leftSink, [:]), ("Bob", PulseServer.rightSink, ["PULSE_LATENCY_MSEC": "150"])] {
            guests.append(try ChildProcess.tandem(["join", "--headless", "--ao=pulse", "--json", "--name", name,
                                                   "--media", folder.path, "--duration", "17", link],
                                                  adding: server.client(sink: sink).merging(extra) { $1 },
                                                  standardError: .standardOutput))
        }
        let recording = folder.path("heard.raw")
        let recorder = try server.record(to: recording)
        for guest in guests { #expect(try await guest.exit(within: 90) == .exited(0), "\(guest.standardOutput)") }
        recorder.interrupt()
        _ = try await recorder.exit()
        _ = try await host.exit(within: 60)

        let samples = try ClickTrack.read(recording)
        let left = ClickTrack.onsets(samples, channel: 0), right = ClickTrack.onsets(samples, channel: 1)
        let lags = ClickTrack.lags(left: left, right: right).map(abs).sorted()
        // Playing about 12 s in all, through a pause, a seek and two rate changes: about 24 clicks.
        #expect(lags.count >= 12, "clicks heard on both: \(left.count) left, \(right.count) right")
        let median = lags.isEmpty ? .infinity : lags[lags.count / 2]
        // Milliseconds of party skew under a loaded test machine are not the point here: 70 ms is.
        #expect(median < 0.01, "heard apart by \(lags.map { ($0 * 1e4).rounded() / 10 }) ms")
        print("heard apart (ms):", lags.map { ($0 * 1e4).rounded() / 10 })
        let first = left.first ?? 0
        print("by time:", zip(left, ClickTrack.lags(left: left, right: right)).map { l, lag in "\(((Double(l - first) / 48000) * 10).rounded() / 10)s:\((lag * 1e4).rounded() / 10)" }.joined(separator: " "))
    }

    /// The host's link, from its JSON lines.
    static func link(of host: ChildProcess) async throws -> String {
        let line = try await host.line(within: 60) { $0.contains("\"link\"") }
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object?["link"] as? String)
    }

    /// A clip with a 10 ms click every half second (lossless FLAC, so each onset is exact) and a
    /// small picture, in Matroska.
    static func makeClickClip(_ path: String, seconds: Int) async throws {
        let result = try await ChildProcess.run("ffmpeg", [
            "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "aevalsrc=if(lt(mod(t\\,0.5)\\,0.01)\\,0.9\\,0):s=48000:c=mono:d=\(seconds)",
            "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=\(seconds)",
            "-c:a", "flac", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path,
        ])
        try #require(result.status == 0, "ffmpeg: \(result.standardError)")
    }
}
