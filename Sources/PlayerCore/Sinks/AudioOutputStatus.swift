/// What a sound output is: the driver, the device, the delay it reports and the audio delay added
/// (for `/who`, the window, and the party's command lead).
public struct AudioOutputStatus: Sendable, Equatable, Codable {
    /// The `--ao` driver: "pulse", "sdl", "null".
    public var driver: String
    /// The device it plays on (a PulseAudio sink name, SDL's driver), "" when unknown.
    public var device: String
    /// The output's delay as reported (seconds).
    public var reportedDelay: Double
    /// `--audio-delay` (seconds).
    public var audioDelay: Double

    public init(driver: String, device: String, reportedDelay: Double, audioDelay: Double) {
        self.driver = driver
        self.device = device
        self.reportedDelay = reportedDelay
        self.audioDelay = audioDelay
    }

    /// "pulse on speakers: 42 ms reported, −100 ms added".
    public var summary: String {
        var text = device.isEmpty ? driver : "\(driver) on \(device)"
        text += ": \(Self.milliseconds(reportedDelay)) reported"
        if audioDelay != 0 { text += ", \(Self.milliseconds(audioDelay, signed: true)) audio delay" }
        return text
    }

    public static func milliseconds(_ seconds: Double, signed: Bool = false) -> String {
        let ms = Int((seconds * 1000).rounded())
        return signed && ms > 0 ? "+\(ms) ms" : "\(ms) ms"
    }
}
