import SoundOutput
import Testing

@Suite struct AudioOutputChoiceTests {
    @Test func parsesMPVsSyntax() throws {
        #expect(try AudioOutputChoice(parsing: "pulse").drivers == [.pulse])
        #expect(try AudioOutputChoice(parsing: "sdl,pulse").drivers == [.sdl, .pulse])
        // A trailing comma lets the others follow, as in mpv.
        #expect(try AudioOutputChoice(parsing: "sdl,").drivers == [.sdl, .pulse, .alsa])
        #expect(try AudioOutputChoice(parsing: "alsa,pulse").drivers == [.alsa, .pulse])
        #expect(try AudioOutputChoice(parsing: "null").plays == false)
        #expect(AudioOutputChoice.automatic.drivers == [.pulse, .alsa, .sdl])
    }

    @Test func anUnknownOutputIsNamed() {
        #expect(throws: AudioOutputChoiceError(text: "oss,pulse", unknown: "oss")) { try AudioOutputChoice(parsing: "oss,pulse") }
        #expect(throws: AudioOutputChoiceError(text: "", unknown: "")) { try AudioOutputChoice(parsing: "") }
        let message = AudioOutputChoiceError(text: "jack", unknown: "jack").description
        #expect(message.contains("no audio output 'jack'") && message.contains("pulse, alsa, sdl, null"))
    }

    @Test func theAudioDelayIsTakenOffWhatTheOutputReports() {
        let delay = OutputDelayReading(reported: 0.05, audioDelay: 0.1)
        // Positive: the sound is heard later than the clock, so the clock takes the output as faster.
        #expect(abs(delay.latency - -0.05) < 1e-12)
        delay.setAudioDelay(-0.15)
        #expect(abs(delay.latency - 0.2) < 1e-12)
    }
}
