/// A member's sound output, in its status (protocol 6): what it plays on, the delay the output
/// reports, the audio delay added, and how much sound its player renders ahead of the output. The
/// server leads every command by the slowest member's (``PartyServerCore``), so a member on a
/// Bluetooth headset or an HDMI TV still hears each command on its instant; the others see it in
/// the participant list (`/who`).
public struct OutputReport: Sendable, Codable, Equatable {
    /// The `--ao` driver: "pulse", "sdl".
    public var driver: String
    /// The device it plays on (a PulseAudio sink), when known.
    public var device: String?
    /// The output's delay as it reports it: from a pull until its first sample is heard (ms).
    public var delayMs: Double
    /// mpv's `--audio-delay` (ms, positive: later); absent when 0.
    public var audioDelayMs: Double?
    /// Sound the player has rendered beyond what the output holds (ms): a rate change must be known
    /// before then, as the rendered sound keeps the old rate.
    public var renderedMs: Double

    /// A change smaller than this is not worth a status of its own (the delay of a sound server
    /// moves by a few milliseconds from pull to pull); a new device is, or a delay that moved more.
    public static let notableChangeMs = 10.0
    /// Largest delay taken from a report (ms): beyond it a report is a bug or a lie, and a party must
    /// not wait seconds for every command.
    public static let maximumMs = 1000.0

    public init(driver: String, device: String?, delayMs: Double, audioDelayMs: Double?, renderedMs: Double) {
        self.driver = String(driver.prefix(PartyProtocol.maxNameLength))
        self.device = device.map { String($0.prefix(PartyProtocol.maxNameLength)) }
        self.delayMs = delayMs
        self.audioDelayMs = audioDelayMs == 0 ? nil : audioDelayMs
        self.renderedMs = renderedMs
    }

    /// Seconds between a pull and when its sound is heard, as the member's clock takes it (the
    /// reported delay less the audio delay), within 0…``maximumMs``.
    public var committed: Double { Self.bounded(delayMs - (audioDelayMs ?? 0)) }
    /// ``committed`` and what the player has rendered beyond it: how early a rate change must arrive.
    public var rendered: Double { Self.bounded(delayMs - (audioDelayMs ?? 0) + renderedMs) }

    private static func bounded(_ ms: Double) -> Double { ms.isFinite ? min(max(ms, 0), maximumMs) / 1000 : 0 }

    /// Whether `other` differs enough to tell the party again.
    public func differsNotably(from other: OutputReport?) -> Bool {
        guard let other else { return true }
        return driver != other.driver || device != other.device || audioDelayMs != other.audioDelayMs
            || abs(delayMs - other.delayMs) >= Self.notableChangeMs || abs(renderedMs - other.renderedMs) >= Self.notableChangeMs
    }

    /// "pulse on speakers, 92 ms" or "sdl, 21 ms, audio delay −100 ms", for the participant list.
    public var summary: String {
        var text = device.map { "\(driver) on \($0)" } ?? driver
        text += ", \(Int(delayMs.rounded())) ms"
        if let audioDelayMs { text += ", audio delay \(audioDelayMs > 0 ? "+" : "")\(Int(audioDelayMs.rounded())) ms" }
        return text
    }
}
