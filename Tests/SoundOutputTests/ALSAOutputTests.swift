import FFmpegKit
import Foundation
import PlayerCore
import SoundOutput
import Synchronization
import Testing
import TestSupport

/// The ALSA output against a real PulseAudio server of the test's own (``PulseServer``), reached through
/// ALSA's `pulse` plugin (Debian's libasound2-plugins): the PCM's delay is what the plugin reports to
/// alsa-lib, and what is recorded off the server is where each pull said it would be heard.
@Suite(.enabled(if: PulseServer.isInstalled && ALSAPulsePlugin.isInstalled,
                "needs Debian's pulseaudio and libasound2-plugins (scripts/test.sh installs them)"))
struct ALSAOutputTests {
    /// An ALSA device of the test's own: the `pulse` plugin playing on `sink` of `server`.
    static func place(_ server: PulseServer, sink: String, buffer: Double = ALSAPlace.defaultBuffer) -> ALSAPlace {
        ALSAPlace(device: "tandem", configuration: """
            pcm.tandem {
                type pulse
                server "\(server.address)"
                device "\(sink)"
            }
            """, buffer: buffer)
    }

    /// Clicks this close (median) were placed by the delay ALSA reports. Taken as the buffer the output
    /// asked for, the ALSA side's would be heard about a period (45 ms) early, since the thread writes
    /// once a period of its 180 ms buffer is free; a loaded 2-core machine adds up to about 12 ms.
    static let heardTogether = 0.025

    /// A PulseAudio output keeping 30 ms queued and an ALSA one keeping 180 ms, each placing a click every
    /// half second on the host clock by the delay it reports: recorded together, the clicks coincide.
    @Test func clicksPlacedByALSAsDelayAreHeardWithPulseAudios() async throws {
        let server = try await PulseServer()
        defer { Task { await server.stop() } }
        let recording = server.folder.path("rec.raw")
        let recorder = try server.record(to: recording)
        let start = ClickSource.now() + 0.5
        let pulse = try StreamSoundDevice.pulse(preferredChannels: 1, place: PulsePlace(server: server.address, sink: PulseServer.leftSink,
                                                                                       buffer: 0.03), warn: { _ in })
        let alsa = try StreamSoundDevice.alsa(preferredChannels: 1, place: Self.place(server, sink: PulseServer.rightSink, buffer: 0.18),
                                              warn: { _ in })
        #expect(alsa.output?.driver == "alsa" && alsa.output?.device == "tandem")
        let sources = ClickRecording.play(on: [pulse, alsa], from: start)
        try await waitUntil("eight clicks played", within: 30) { sources.allSatisfy { $0.clicksWritten >= 9 } }
        let lags = try await ClickRecording.lags(recording, recorder: recorder, stopping: [pulse, alsa])
        print("ALSA heard after PulseAudio (ms):", ClickRecording.milliseconds(lags))
        #expect(lags.count >= 6, "clicks found on both sides: \(lags)")
        let median = ClickRecording.median(lags)
        #expect(median < Self.heardTogether, "heard apart by \(median * 1000) ms (median): \(ClickRecording.milliseconds(lags))")
    }

    /// A device ALSA does not know, and a configuration that does not parse: clear errors naming the device.
    @Test func badDevicesAreClearErrors() throws {
        #expect {
            try StreamSoundDevice.alsa(place: ALSAPlace(device: "tandem_no_such_device"), warn: { _ in })
        } throws: { error in
            "\(error)".hasPrefix("ALSA tandem_no_such_device: cannot open it (")
        }
        #expect {
            try StreamSoundDevice.alsa(place: ALSAPlace(device: "tandem", configuration: "pcm.tandem { type "), warn: { _ in })
        } throws: { error in
            "\(error)".hasPrefix("ALSA tandem: its configuration does not parse")
        }
    }

    /// The sound server behind the ALSA device dies mid-play: one warning, the player is still pulled
    /// (paced without sound), and when it is back, sound is heard again through ALSA.
    @Test func aDeviceThatFailsAndComesBack() async throws {
        let server = try await PulseServer()
        defer { Task { await server.stop() } }
        let warnings = Mutex<[String]>([])
        let sink = try StreamSoundDevice.alsa(preferredChannels: 1, place: Self.place(server, sink: PulseServer.leftSink),
                                              warn: { line in warnings.withLock { $0.append(line) } })
        defer { sink.stop() }
        let lost = try await expectSoundLostAndBack(server, sink, warnings: warnings)
        #expect(lost?.contains("the ALSA device tandem failed") == true, "\(warnings.withLock { $0 })")
    }
}

/// ALSA's `pulse` plugin (Debian's libasound2-plugins).
enum ALSAPulsePlugin {
    static var isInstalled: Bool {
        ["/usr/lib/x86_64-linux-gnu/alsa-lib", "/usr/lib/aarch64-linux-gnu/alsa-lib", "/usr/lib/alsa-lib"]
            .contains { FileManager.default.fileExists(atPath: "\($0)/libasound_module_pcm_pulse.so") }
    }
}
