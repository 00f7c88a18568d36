import SoundOutput
import Testing
@testable import TandemCLI

/// `--ao` and `--audio-device` as play, host and join parse them (mpv's names).
@Suite struct SoundOutputOptionsTests {
    @Test func anALSADeviceIsNamedAsMPVNamesIt() throws {
        let play = try PlayCommand.parse(["a.mp4", "--ao", "alsa", "--audio-device", "alsa/plughw:1,0"])
        let sound = try #require(play.soundOutput.sound(headless: false))
        #expect(sound.outputs.drivers == [.alsa])
        #expect(sound.alsa.device == "plughw:1,0")
        #expect(sound.pulse.sink == nil)

        // Without --ao, the device's output is tried first, as in mpv.
        let named = try #require(try PlayCommand.parse(["a.mp4", "--audio-device", "alsa/hw:1,0"]).soundOutput.sound(headless: false))
        #expect(named.outputs.drivers == [.alsa, .pulse, .sdl])
        #expect(named.alsa.device == "hw:1,0")

        let host = try HostCommand.parse(["a.mp4", "--audio-device", "pulse/headset"])
        let hostSound = try #require(host.soundOutput.sound(headless: false))
        #expect(hostSound.pulse.sink == "headset")
        #expect(hostSound.alsa.device == "default")
        #expect(hostSound.outputs == .automatic)
    }

    @Test func otherDevicesAreRefusedWithWhatToGive() {
        for bad in ["oss/dsp", "alsa/", "pulse/", "hw:0"] {
            #expect {
                try PlayCommand.parse(["a.mp4", "--audio-device", bad])
            } throws: { error in
                PlayCommand.message(for: error).contains("alsa/NAME (an ALSA device)")
            }
        }
    }
}
