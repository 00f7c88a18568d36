import Foundation
import PlayerCore
import SoundOutput
import Synchronization
import TandemWindow
import Testing
import TestSupport

/// `--ao`'s order and the audio delay kept per device, against a real PulseAudio server of the
/// test's own.
@Suite(.enabled(if: PulseServer.isInstalled, "needs Debian's pulseaudio (scripts/test.sh installs it)"))
struct SoundDevicesTests {
    final class Memory: AudioDelayMemory {
        let kept = Mutex<[String: Double]>([:])
        init(_ kept: [String: Double] = [:]) { self.kept.withLock { $0 = kept } }
        func delay(for output: String) -> Double? { kept.withLock { $0[output] } }
        func remember(_ seconds: Double, for output: String) { kept.withLock { $0[output] = seconds } }
    }

    @Test func theDelayKeptForTheDeviceAppliesAndTheKeysKeepIt() async throws {
        let server = try await PulseServer()
        defer { Task { await server.stop() } }
        let memory = Memory(["pulse:\(PulseServer.rightSink)": -0.2])
        let place = PulsePlace(server: server.address, sink: PulseServer.rightSink)
        let opened = SoundDevices.open(SoundOptions(outputs: .automatic, memory: memory, pulse: place), warn: { _ in })
        let device = try #require(opened)
        defer { device.stop() }
        #expect(device.output?.driver == "pulse")
        #expect(device.output?.device == PulseServer.rightSink)
        #expect(device.audioDelay == -0.2)
        // Ctrl++ twice: kept for the device, to the millisecond.
        _ = SoundDevices.adjustAudioDelay(device, by: 0.1, memory: memory)
        #expect(SoundDevices.adjustAudioDelay(device, by: 0.1, memory: memory) == 0)
        #expect(memory.delay(for: "pulse:\(PulseServer.rightSink)") == 0)

        // --audio-delay given: it wins over what is kept.
        let other = Memory(["pulse:\(PulseServer.rightSink)": -0.2])
        let openedGiven = SoundDevices.open(SoundOptions(outputs: .automatic, audioDelay: 0.05, memory: other, pulse: place), warn: { _ in })
        let given = try #require(openedGiven)
        defer { given.stop() }
        #expect(given.audioDelay == 0.05)
    }

    /// `--ao=pulse` with no server: one warning naming why, and no device (the players go on muted).
    @Test func noOutputOpensIsOneWarning() {
        let warnings = Mutex<[String]>([])
        let place = PulsePlace(server: "unix:\(temporarySocketPath("no-pulse"))")
        let device = SoundDevices.open(SoundOptions(outputs: AudioOutputChoice(drivers: [.pulse]), pulse: place),
                                       warn: { line in warnings.withLock { $0.append(line) } })
        #expect(device == nil)
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("no sound output (pulse: PulseAudio: ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("): playing muted") == true)
    }

    /// `--ao=alsa,pulse` where ALSA has no such device: the next output opens, without a warning.
    @Test func anOutputThatDoesNotOpenGivesWayToTheNext() async throws {
        let server = try await PulseServer()
        defer { Task { await server.stop() } }
        let warnings = Mutex<[String]>([])
        let options = SoundOptions(outputs: AudioOutputChoice(drivers: [.alsa, .pulse]),
                                   pulse: PulsePlace(server: server.address, sink: PulseServer.leftSink),
                                   alsa: ALSAPlace(device: "tandem_no_such_device"))
        let opened = SoundDevices.open(options, warn: { line in warnings.withLock { $0.append(line) } })
        let device = try #require(opened)
        defer { device.stop() }
        #expect(device.output?.driver == "pulse")
        #expect(warnings.withLock { $0 }.isEmpty)

        // Neither opens: one line naming both.
        let none = SoundOptions(outputs: AudioOutputChoice(drivers: [.alsa, .pulse]),
                                pulse: PulsePlace(server: "unix:\(temporarySocketPath("no-pulse"))"),
                                alsa: ALSAPlace(device: "tandem_no_such_device"))
        #expect(SoundDevices.open(none, warn: { line in warnings.withLock { $0.append(line) } }) == nil)
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("no sound output (alsa: ALSA tandem_no_such_device: cannot open it (") == true, "\(lines)")
        #expect(lines.first?.contains("; pulse: PulseAudio: ") == true, "\(lines)")
    }
}
