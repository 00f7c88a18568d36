import Foundation
import PlayerCore

/// mpv's `--ao=DRIVER[,DRIVER…][,]`: the sound outputs to try, in order. A trailing comma lets the
/// others follow, as in mpv; `null` plays without sound (paced, so the clock still runs).
public struct AudioOutputChoice: Sendable, Equatable, CustomStringConvertible {
    public enum Driver: String, CaseIterable, Sendable {
        /// PulseAudio, or PipeWire through pipewire-pulse: knows its delay (``PulseStream``).
        case pulse
        /// ALSA: the driver's delay (``ALSAStream``); a card's own device, or ALSA's `default`.
        case alsa
        /// SDL's audio device: the fallback (its delay is one buffer, whatever the device adds).
        case sdl
        /// No sound.
        case null
    }

    /// The default, as mpv's: the sound server first, then ALSA, then SDL (then muted, with a warning).
    public static let automatic = AudioOutputChoice(drivers: [.pulse, .alsa, .sdl])
    /// `--ao=null`.
    public static let none = AudioOutputChoice(drivers: [.null])

    public let drivers: [Driver]

    public init(drivers: [Driver]) { self.drivers = drivers }

    /// Parses mpv's syntax; an unknown name is an error that lists the known ones.
    public init(parsing text: String) throws(AudioOutputChoiceError) {
        var names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let others = names.count > 1 && names.last == ""
        if others { names.removeLast() }
        guard !names.isEmpty, !names.contains("") else { throw AudioOutputChoiceError(text: text, unknown: "") }
        var drivers: [Driver] = []
        for name in names {
            guard let driver = Driver(rawValue: name) else { throw AudioOutputChoiceError(text: text, unknown: name) }
            if !drivers.contains(driver) { drivers.append(driver) }
        }
        if others { drivers += Self.automatic.drivers.filter { !drivers.contains($0) } }
        self.drivers = drivers
    }

    /// True when sound is wanted at all.
    public var plays: Bool { drivers.contains { $0 != .null } }

    public var description: String { drivers.map(\.rawValue).joined(separator: ",") }
}

/// `--ao` named an output Tandem does not have.
public struct AudioOutputChoiceError: Error, CustomStringConvertible, Sendable, Equatable {
    public let text: String
    /// The name not known ("" for an empty one).
    public let unknown: String
    public init(text: String, unknown: String) {
        self.text = text
        self.unknown = unknown
    }
    public var description: String {
        let known = AudioOutputChoice.Driver.allCases.map(\.rawValue).joined(separator: ", ")
        return unknown.isEmpty ? "--ao '\(text)': an empty output name (outputs: \(known))"
            : "--ao '\(text)': no audio output '\(unknown)' (outputs: \(known))"
    }
}

/// How a session plays its sound: mpv's `--ao` and `--audio-delay`.
public struct SoundOptions: Sendable {
    public var outputs: AudioOutputChoice
    /// Seconds; positive plays the sound later. Nil: what `memory` keeps for the output (else 0).
    public var audioDelay: Double?
    /// The audio delay of each output device, kept from run to run (Ctrl+−/Ctrl++ set it).
    public var memory: (any AudioDelayMemory)?
    /// Where the PulseAudio output plays (mpv's `--audio-device=pulse/SINK`).
    public var pulse: PulsePlace
    /// Where the ALSA output plays (mpv's `--audio-device=alsa/NAME`).
    public var alsa: ALSAPlace

    public init(outputs: AudioOutputChoice = .automatic, audioDelay: Double? = nil, memory: (any AudioDelayMemory)? = nil,
                pulse: PulsePlace = PulsePlace(), alsa: ALSAPlace = ALSAPlace()) {
        self.pulse = pulse
        self.alsa = alsa
        self.outputs = outputs
        self.audioDelay = audioDelay
        self.memory = memory
    }
}

/// The audio delay a user set for each output device ("pulse:bluez_sink…", "sdl:alsa"), so the next
/// run on that device starts right: what no interface reports (a TV's processing) is set once.
public protocol AudioDelayMemory: Sendable {
    func delay(for output: String) -> Double?
    func remember(_ seconds: Double, for output: String)
}

extension AudioOutputStatus {
    /// The key its audio delay is kept under.
    public var memoryKey: String { device.isEmpty ? driver : "\(driver):\(device)" }
}
