import ArgumentParser
import SoundOutput
import TandemApp
import TandemWindow

/// mpv's `--ao` and `--audio-delay`, for every command that plays sound (`play`, `host`, `join`,
/// `stories`).
struct SoundOutputOptions: ParsableArguments {
    @Option(name: .customLong("ao"), help: ArgumentHelp(
        "Sound outputs to try in order, as mpv's: pulse (PulseAudio or PipeWire), alsa (both know their delay), sdl, "
            + "null (no sound); a trailing comma tries the others after (default: pulse,alsa,sdl; headless: null).",
        valueName: "outputs"), transform: { text in
            do throws(AudioOutputChoiceError) { return try AudioOutputChoice(parsing: text) } catch { throw ValidationError(error.description) }
        })
    var outputs: AudioOutputChoice?
    @Option(name: .customLong("audio-delay"), help: ArgumentHelp(
        "Seconds to delay the sound against the pictures and the party, as mpv's: negative for a TV or amplifier "
            + "that delays sound by what it does not report (Ctrl+- / Ctrl++ in the window set it and keep it for "
            + "the device; default: what was kept for the device, else 0).", valueName: "seconds"))
    var audioDelay: Double?
    @Option(name: .customLong("audio-device"), help: ArgumentHelp(
        "The device to play on, as mpv's: pulse/SINK (a PulseAudio sink, see `pactl list short sinks`), alsa/NAME "
            + "(an ALSA device, see `aplay -L`) or auto; without --ao, its output is tried first.",
        valueName: "device"))
    var audioDevice: String?

    func validate() throws {
        if let audioDevice, audioDevice != "auto", Self.device(audioDevice, of: "pulse") == nil, Self.device(audioDevice, of: "alsa") == nil {
            throw ValidationError("--audio-device \(audioDevice): give pulse/SINK (a PulseAudio sink name), alsa/NAME (an ALSA device) or auto")
        }
        if let audioDelay, !audioDelay.isFinite || abs(audioDelay) > Self.maximumDelay {
            throw ValidationError("--audio-delay \(audioDelay): between -\(Int(Self.maximumDelay)) and \(Int(Self.maximumDelay)) seconds")
        }
    }

    /// Beyond this a delay is a typo, not a device (the longest TV processing is well under a second).
    static let maximumDelay = 10.0

    /// The sound of a session with a window (the default outputs) or headless (sound only when
    /// `--ao` asks for it).
    func sound(headless: Bool) -> SoundOptions? {
        if headless, outputs == nil { return nil }
        let options = SoundOptions(outputs: outputs ?? Self.outputs(for: audioDevice), audioDelay: audioDelay,
                                   memory: SavedAudioDelays(path: SavedAudioDelays.defaultPath()),
                                   pulse: PulsePlace(sink: audioDevice.flatMap { Self.device($0, of: "pulse") }),
                                   alsa: ALSAPlace(device: audioDevice.flatMap { Self.device($0, of: "alsa") } ?? "default"))
        return options.outputs.plays ? options : nil
    }

    /// Without `--ao`, as mpv: a device names its output, which is tried first (`alsa/hw:1,0` plays on ALSA
    /// even where PulseAudio runs), then the others.
    static func outputs(for audioDevice: String?) -> AudioOutputChoice {
        let named = AudioOutputChoice.Driver.allCases.first { driver in audioDevice.flatMap { device($0, of: driver.rawValue) } != nil }
        guard let named else { return .automatic }
        return AudioOutputChoice(drivers: [named] + AudioOutputChoice.automatic.drivers.filter { $0 != named })
    }

    /// The NAME of mpv's `DRIVER/NAME` when `text` names one for `driver`.
    static func device(_ text: String, of driver: String) -> String? {
        guard text.hasPrefix(driver + "/"), text.count > driver.count + 1 else { return nil }
        return String(text.dropFirst(driver.count + 1))
    }

    /// Sinks for a headless session's players when `--ao` asks for sound.
    func headlessSound() -> SharedSound? {
        sound(headless: true).map { SharedSound($0, warn: { printError($0) }) }
    }
}
