import FFmpegKit
import Foundation
import PlayerCore
import SoundOutput
import Synchronization
import Testing
import TestSupport
@testable import TandemWindow

extension SDLTests {
    /// Sound through a real SDL device: SDL's disk driver writes what the device would play to a file.
    @Suite struct SDLAudioSinkTests {
        /// Seconds played, and compared (after the start's silence and alignment).
        static let played = 1.6
        static let compared = 1.2

        /// What ffmpeg decodes from the clip: interleaved float stereo at 44.1 kHz.
        static func reference(_ file: String) async throws -> [Float] {
            let data = try await ChildProcess.run("ffmpeg", ["-v", "quiet", "-i", TestMedia.path(file), "-map", "0:a:0", "-t", "2",
                                                             "-f", "f32le", "-"]).standardOutputBytes
            return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }

        @Test(arguments: [100, 50])
        func theDeviceGetsTheDecodedSamples(volume: Int) async throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-disk-\(getpid())-\(volume).raw").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            SDLTests.useHeadlessDrivers()
            setenv("SDL_AUDIODRIVER", "disk", 1)
            setenv("SDL_DISKAUDIOFILE", path, 1)
            defer { SDLTests.useHeadlessDrivers() }

            let sink = try SDLAudioSink(preferredRate: 44100, preferredChannels: 2, volume: volume)
            #expect(sink.driver == "disk")
            let player = try await Player.open(TestMedia.path("h264-aac.mp4"), options: PlayerOptions(videoSink: nil, audioSink: sink))
            #expect(sink.latency > 0 && sink.latency < 0.1)
            player.setStopPosition(Self.played)
            player.play()
            await player.waitUntilEnded()
            await player.close()  // stops the sink: the device is closed, the file complete

            let heard = try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let reference = try await Self.reference("h264-aac.mp4")
            let gain = SoundMixer.gain(volume: volume, muted: false)
            #expect(gain == (volume == 100 ? 1 : 0.125))
            // Frames (stereo pairs). The device starts with silence (the preroll); find where the sound
            // starts in both, then the exact lag around it.
            let threshold: Float = 1e-3
            let heardStart = try #require(heard.firstIndex { abs($0) > threshold * gain }) / 2
            let referenceStart = try #require(reference.firstIndex { abs($0) > threshold }) / 2
            let window = 2048
            func error(lag: Int, frames: Int) -> Double {
                var sum = 0.0
                for i in 0..<frames * 2 {
                    let a = Double(heard[2 * lag + i]), b = Double(reference[2 * referenceStart + i]) * Double(gain)
                    sum += (a - b) * (a - b)
                }
                return sum / Double(frames * 2)
            }
            let candidates = max(0, heardStart - 64)...(heardStart + 64)
            let lag = try #require(candidates.min { error(lag: $0, frames: window) < error(lag: $1, frames: window) })
            let frames = Int(Self.compared * 44100)
            #expect(heard.count / 2 >= lag + frames, "only \(heard.count / 2) frames heard")
            guard heard.count / 2 >= lag + frames else { return }
            var dot = 0.0, heardEnergy = 0.0, referenceEnergy = 0.0, maxError: Float = 0
            for i in 0..<frames * 2 {
                let a = heard[2 * lag + i], b = reference[2 * referenceStart + i] * gain
                dot += Double(a) * Double(b)
                heardEnergy += Double(a) * Double(a)
                referenceEnergy += Double(b) * Double(b)
                maxError = max(maxError, abs(a - b))
            }
            let correlation = dot / (heardEnergy * referenceEnergy).squareRoot()
            #expect(correlation > 0.9999, "correlation \(correlation)")
            #expect(maxError < 1e-4, "max error \(maxError)")
        }

        /// A source that plays one constant value and counts the device's pulls.
        final class ConstantSource: AudioSource {
            let value: Float
            private let pulls = Atomic<Int>(0)
            init(_ value: Float) { self.value = value }
            func pull(into buffer: UnsafeMutableRawBufferPointer, frames: Int, heardIn: Double) -> Int {
                let samples = buffer.bindMemory(to: Float.self)
                for i in samples.indices { samples[i] = value }
                pulls.add(1, ordering: .relaxed)
                return frames
            }
            func pullAvailable(into buffer: UnsafeMutableRawBufferPointer, frames: Int, timeout: Double) -> Int {
                pull(into: buffer, frames: frames)
            }
            var pullCount: Int { pulls.load(ordering: .relaxed) }

            /// Waits (polling, bounded) until the device has pulled `count` buffers in all.
            func waitForPulls(_ count: Int, seconds: Double = defaultBound) async -> Bool {
                await eventually(within: seconds) { pullCount >= count }
            }
        }

        /// Device buffers each phase of the mixing test lasts: several, so each is surely in the file.
        static let buffersPerPhase = 4

        /// Two players on one device (a story and its neighbour): their samples are summed; a
        /// detached input is not heard again.
        @Test func inputsOfOneDeviceAreMixed() async throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-mix-\(getpid()).raw").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            SDLTests.useHeadlessDrivers()
            setenv("SDL_AUDIODRIVER", "disk", 1)
            setenv("SDL_DISKAUDIOFILE", path, 1)
            defer { SDLTests.useHeadlessDrivers() }

            let device = try SDLAudioSink(preferredRate: 48000, preferredChannels: 2)
            let a = device.input(), b = device.input()
            let format = a.format(sourceRate: 44100, sourceChannels: 1)
            #expect(format == b.format(sourceRate: 48000, sourceChannels: 2), "every input gets the device's format")
            let bufferSamples = Int((device.latency * Double(format.sampleRate)).rounded()) * format.channels  // one callback's
            let quarter = ConstantSource(0.25), half = ConstantSource(0.5)
            a.start(quarter, format: format)
            b.start(half, format: format)
            #expect(await half.waitForPulls(Self.buffersPerPhase))
            b.stop()  // returns once no callback runs: `half` is not pulled again
            let halfPulls = half.pullCount
            #expect(await quarter.waitForPulls(quarter.pullCount + Self.buffersPerPhase))
            a.stop()
            device.stop()  // closing waits for SDL's thread: the file is complete
            #expect(half.pullCount == halfPulls, "a detached input is not pulled")
            let heard = try Data(contentsOf: URL(fileURLWithPath: path)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let lastMixed = try #require(heard.lastIndex(of: 0.75), "both inputs summed")
            // After the last mixed sample: the remaining input alone, then silence once it detaches too.
            let after = heard[(lastMixed + 1)...]
            let sounding = after.prefix { $0 != 0 }
            #expect(sounding.allSatisfy { $0 == 0.25 }, "only the remaining input after b.stop()")
            #expect(after.dropFirst(sounding.count).allSatisfy { $0 == 0 })
            // The buffers pulled after b.stop(), but for one of slack.
            #expect(sounding.count >= (Self.buffersPerPhase - 1) * bufferSamples, "\(sounding.count) samples of a alone")
        }

        @Test func noDeviceIsAClearError() {
            setenv("SDL_AUDIODRIVER", "no-such-driver", 1)
            defer { SDLTests.useHeadlessDrivers() }
            #expect(throws: SoundDeviceError.self) { try SDLAudioSink() }
        }

        @Test func volumeIsCubicAndMuteSilences() {
            #expect(SoundMixer.gain(volume: 100, muted: false) == 1)
            #expect(SoundMixer.gain(volume: 0, muted: false) == 0)
            #expect(abs(SoundMixer.gain(volume: 50, muted: false) - 0.125) < 1e-7)
            #expect(SoundMixer.gain(volume: 150, muted: false) == 1)  // clamped
            #expect(SoundMixer.gain(volume: 100, muted: true) == 0)
        }

        @Test func volumeStepsAreClampedAndMuteToggles() throws {
            SDLTests.useHeadlessDrivers()
            let sink = try SDLAudioSink(volume: 96)
            defer { sink.stop() }
            sink.adjustVolume(by: 2)
            sink.adjustVolume(by: 2)
            sink.adjustVolume(by: 2)
            #expect(sink.volume == 100)
            sink.setVolume(-5)
            #expect(sink.volume == 0)
            sink.setMuted(true)
            #expect(sink.muted)
            let format = sink.format(sourceRate: 22050, sourceChannels: 1)
            #expect(format.sample == .float32 && format.sampleRate > 0 && format.channels > 0)
        }
    }
}
