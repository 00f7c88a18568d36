/// Where a PulseAudio output plays: the server, the sink, and how much sound it keeps queued.
public struct PulsePlace: Sendable, Equatable {
    /// A server address (`unix:/run/user/1000/pulse/native`, `tcp:host`); nil: `PULSE_SERVER`, else the user's.
    public var server: String?
    /// A sink name (mpv's `--audio-device=pulse/NAME`); nil: `PULSE_SINK`, else the server's default.
    public var sink: String?
    /// Seconds of sound to keep queued (`PULSE_LATENCY_MSEC` overrides it, as for every client).
    public var buffer: Double

    public init(server: String? = nil, sink: String? = nil, buffer: Double = PulseStream.targetBuffer) {
        self.server = server
        self.sink = sink
        self.buffer = buffer
    }
}
