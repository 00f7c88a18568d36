import ArgumentParser
import SoundOutput
import TandemApp
import TandemWindow

/// mpv's `--ao` and `--audio-delay`, for every command that plays sound (`play`, `host`, `join`,
/// `stories`).
struct SoundOutputOptions: ParsableArguments {
    @Option(name: .customLong("ao"), help: ArgumentHelp(
        "Sound outputs to try in order, as mpv's: pulse (PulseAudio or PipeWire, knows its delay), sdl, null "
            + "(no sound); a trailing comma tries the others after (default: pulse,sdl; headless: null).",
        valueName: "outputs"), transform: { text in
            do throws(AudioOutputChoiceError) { return try AudioOutputChoice(parsing: text) } catch { throw ValidationError(error.description) }
        })
    var outputs: AudioOutputChoice?
    @Option(name: .customLong("audio-delay"), help: ArgumentHelp(
        "Seconds to delay the sound against the pictures and the party, as mpv's: negative for a TV or amplifier "
            + "that delays sound by what it does not report (Ctrl+- / Ctrl++ in the window).", valueName: "seconds"))
    var audioDelay: Double = 0

    func validate() throws {
        guard audioDelay.isFinite, abs(audioDelay) <= Self.maximumDelay else {
            throw ValidationError("--audio-delay \(audioDelay): between -\(Int(Self.maximumDelay)) and \(Int(Self.maximumDelay)) seconds")
        }
    }

    /// Beyond this a delay is a typo, not a device (the longest TV processing is well under a second).
    static let maximumDelay = 10.0

    /// The sound of a session with a window (the default outputs) or headless (sound only when
    /// `--ao` asks for it).
    func sound(headless: Bool) -> SoundOptions? {
        if headless, outputs == nil { return nil }
        let options = SoundOptions(outputs: outputs ?? .automatic, audioDelay: audioDelay)
        return options.outputs.plays ? options : nil
    }

    /// Sinks for a headless session's players when `--ao` asks for sound.
    func headlessSound() -> SharedSound? {
        sound(headless: true).map { SharedSound($0, warn: { printError($0) }) }
    }
}
