import Foundation
import TandemApp
import Testing
import TestSupport

@Suite struct SavedAudioDelaysTests {
    @Test func delaysAreKeptPerDeviceFromRunToRun() throws {
        let folder = try TemporaryFolder("delays")
        defer { folder.remove() }
        let path = folder.path("state/tandem/audio-delays")
        SavedAudioDelays(path: path).remember(-0.12, for: "pulse:hdmi-stereo")
        SavedAudioDelays(path: path).remember(0.05, for: "pulse:bluez_sink.AA_BB=x")
        let next = SavedAudioDelays(path: path)
        #expect(next.delay(for: "pulse:hdmi-stereo") == -0.12)
        #expect(next.delay(for: "pulse:bluez_sink.AA_BB=x") == 0.05)
        #expect(next.delay(for: "sdl") == nil)
        next.remember(0, for: "pulse:hdmi-stereo")
        #expect(SavedAudioDelays(path: path).delay(for: "pulse:hdmi-stereo") == 0)
    }

    @Test func aDamagedFileLosesOnlyItsBadLines() throws {
        let folder = try TemporaryFolder("delays")
        defer { folder.remove() }
        let path = folder.path("audio-delays")
        try "pulse:tv=-0.3\ngarbage\npulse:x=nan\npulse:y=99\n=\nsdl=0.1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let kept = SavedAudioDelays(path: path)
        #expect(kept.delay(for: "pulse:tv") == -0.3)
        #expect(kept.delay(for: "sdl") == 0.1)
        #expect(kept.delay(for: "pulse:x") == nil)
        #expect(kept.delay(for: "pulse:y") == nil)
    }
}
