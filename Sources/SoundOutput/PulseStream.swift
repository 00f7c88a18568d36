import CPulse
import Foundation
import FFmpegKit
import Synchronization

/// One connection to a PulseAudio server (or PipeWire's pipewire-pulse) and one playback stream
/// on it, on libpulse's threaded main loop. Owns the main loop, the context and the stream, and
/// frees them in ``close()`` (or when released).
///
/// The server asks for sound on the main loop's thread (the write callback); each time, the
/// stream's latency is read first — the time from now until a sample written now is heard, the
/// server's queue and the device's own delay included, interpolated between the server's timing
/// updates — and then the mixer is rendered into the server's buffer. So the clock learns from
/// every pull when its first sample will be heard, and follows a delay that changes (the stream
/// moved to another sink, a headset connected) from the next pull on.
public final class PulseStream: SoundStream, @unchecked Sendable {
    /// The sound the stream asks the server to keep queued (`tlength`): about SDL's buffer, so a
    /// correction is heard soon, and well above how late a busy 2-core machine wakes the main loop's
    /// thread. `PULSE_LATENCY_MSEC` overrides it, as for every libpulse client.
    public static let targetBuffer = 0.05
    /// How long opening waits for the server: a local server answers in milliseconds and a missing
    /// one refuses at once; this bounds a server that accepted the socket and hangs.
    static let connectTimeout = 2.0

    let sampleRate: Int
    let channels: Int
    /// Where to connect and play (nil: `PULSE_SERVER`/`PULSE_SINK`, else the user's defaults).
    let place: PulsePlace
    private let mainloop: OpaquePointer
    // Touched on the main loop's thread, or under its lock, or once it is stopped.
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private let mixer: SoundMixer
    private let delay: OutputDelayReading
    private let onLost: SoundStreamLost
    private let changed = DispatchSemaphore(value: 0)
    private let closed = Atomic<Bool>(false)
    /// The connection came up: from then on a failure is a loss, not a failed open.
    private let up = Atomic<Bool>(false)
    /// The sink the stream plays on.
    private let deviceName = Mutex("")
    /// When the server was last asked for fresh timing (main loop's thread only).
    private var lastTimingRequest = 0.0

    /// How often the server is asked for fresh timing. libpulse's own automatic updates slow down to
    /// one every 1.5 s, and between them its interpolation drifts by up to a couple of milliseconds on
    /// a busy machine; asking every 100 ms keeps the delay each pull reads within a fraction of that.
    static let timingInterval = 0.1

    /// Connects and opens a corked playback stream of float32 samples at `sampleRate` ×
    /// `channels`; ``uncork()`` starts it. Throws when there is no server or it refuses.
    init(sampleRate: Int, channels: Int, place: PulsePlace, mixer: SoundMixer, delay: OutputDelayReading,
         onLost: @escaping SoundStreamLost) throws(SoundDeviceError) {
        self.place = place
        self.sampleRate = sampleRate
        self.channels = min(max(channels, 1), Int(PA_CHANNELS_MAX))
        self.mixer = mixer
        self.delay = delay
        self.onLost = onLost
        guard let loop = pa_threaded_mainloop_new() else { throw SoundDeviceError(reason: "PulseAudio: no main loop") }
        mainloop = loop
        do throws(SoundDeviceError) {
            try connect()
            try openStream()
        } catch {
            close()
            throw error
        }
        up.store(true, ordering: .releasing)
    }

    deinit { close() }

    /// The sink the stream plays on ("" before it is known).
    var device: String { deviceName.withLock { $0 } }

    /// Float32 at the rate and channels asked for (the server converts).
    var format: AudioFormat { AudioFormat(sampleRate: sampleRate, channels: channels, sample: .float32) }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseStream? {
        userdata.map { Unmanaged<PulseStream>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: Opening

    private func connect() throws(SoundDeviceError) {
        guard let api = pa_threaded_mainloop_get_api(mainloop),
              let context = pa_context_new(api, "Tandem") else { throw SoundDeviceError(reason: "PulseAudio: no context") }
        self.context = context
        pa_context_set_state_callback(context, { context, userdata in
            guard let me = PulseStream.from(userdata) else { return }
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
                me.lost("the sound server went away (\(String(cString: pa_strerror(pa_context_errno(context)))))")
            }
            me.changed.signal()
        }, userdata)
        // No autospawn: a missing server is reported, not started behind the user's back.
        guard pa_context_connect(context, place.server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw SoundDeviceError(reason: "PulseAudio: \(errorText())")
        }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else { throw SoundDeviceError(reason: "PulseAudio: main loop did not start") }
        try waitUntil(Self.connectTimeout, "connecting to the sound server") {
            switch pa_context_get_state(context) {
            case PA_CONTEXT_READY: true
            case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED: false
            default: nil
            }
        }
    }

    private func openStream() throws(SoundDeviceError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        var map = pa_channel_map()
        pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_DEFAULT)
        let bytesPerSecond = Double(sampleRate * channels * MemoryLayout<Float>.size)
        // No prebuffering: after an underrun the server plays on, and what is written late is dropped
        // rather than played late, so every sample is still heard where its pull said (with the
        // default, playback would stall until the queue refills, and everything after came late).
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32(bytesPerSecond * place.buffer),
                                        prebuf: 0, minreq: UInt32.max, fragsize: UInt32.max)
        let opened: Bool = withLock {
            guard let stream = pa_stream_new(context, "Tandem", &spec, &map) else { return false }
            self.stream = stream
            pa_stream_set_state_callback(stream, { stream, userdata in
                guard let me = PulseStream.from(userdata) else { return }
                let state = pa_stream_get_state(stream)
                if state == PA_STREAM_READY { me.readDeviceName() }
                if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                    me.lost("the sound server closed the stream (\(me.errorText()))")
                }
                me.changed.signal()
            }, userdata)
            pa_stream_set_write_callback(stream, { stream, bytes, userdata in
                PulseStream.from(userdata)?.write(bytes)
            }, userdata)
            pa_stream_set_moved_callback(stream, { _, userdata in
                PulseStream.from(userdata)?.readDeviceName()
            }, userdata)
            pa_stream_set_underflow_callback(stream, { _, userdata in
                PulseStream.from(userdata)?.delay.underflowed()
            }, userdata)
            return pa_stream_connect_playback(stream, place.sink, &attributes, tandem_pa_playback_flags(), nil, nil) >= 0
        }
        guard opened else { throw SoundDeviceError(reason: "PulseAudio: \(errorText())") }
        try waitUntil(Self.connectTimeout, "opening a sound stream") { [self] in
            switch stream.map(pa_stream_get_state) {
            case PA_STREAM_READY: true
            case PA_STREAM_FAILED, PA_STREAM_TERMINATED, nil: false
            default: nil
            }
        }
    }

    /// Waits until `outcome` (read under the main loop's lock) is decided, at most `timeout` seconds.
    private func waitUntil(_ timeout: Double, _ what: String, _ outcome: () -> Bool?) throws(SoundDeviceError) {
        let deadline = DispatchTime.now() + timeout
        while true {
            switch withLock(outcome) {
            case true?: return
            case false?: throw SoundDeviceError(reason: "PulseAudio: \(errorText())")
            case nil:
                if changed.wait(timeout: deadline) == .timedOut {
                    throw SoundDeviceError(reason: "PulseAudio: no answer \(what) within \(Int(timeout)) s")
                }
            }
        }
    }

    // MARK: Playing

    /// Starts the stream (it opens corked, so nothing plays before the player has a source).
    func start() {
        withLock {
            guard let stream else { return }
            pa_operation_unref(pa_stream_cork(stream, 0, nil, nil))
        }
    }

    /// On the main loop's thread: the server wants `bytes` more.
    private func write(_ bytes: Int) {
        guard let stream else { return }
        let frameBytes = channels * MemoryLayout<Float>.size
        var data: UnsafeMutableRawPointer?
        var size = bytes
        guard pa_stream_begin_write(stream, &data, &size) >= 0, let data, size >= frameBytes else { return }
        size -= size % frameBytes
        let now = Double(pa_rtclock_now()) / 1e6
        if now - lastTimingRequest >= Self.timingInterval, let update = pa_stream_update_timing_info(stream, nil, nil) {
            pa_operation_unref(update)
            lastTimingRequest = now
        }
        var microseconds: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(stream, &microseconds, &negative) >= 0 {
            delay.report(Double(microseconds) / 1e6 * (negative != 0 ? -1 : 1))
        }
        mixer.render(into: UnsafeMutableRawBufferPointer(start: data, count: size))
        pa_stream_write(stream, data, size, nil, 0, PA_SEEK_RELATIVE)
    }

    private func readDeviceName() {
        guard let stream, let name = pa_stream_get_device_name(stream) else { return }
        deviceName.withLock { $0 = String(cString: name) }
    }

    private func lost(_ reason: String) {
        guard up.load(ordering: .acquiring), !closed.load(ordering: .acquiring) else { return }
        onLost(reason)
    }

    // MARK: Closing

    /// Disconnects and frees everything; after it returns no callback runs. Idempotent; not on the
    /// main loop's thread.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        withLock {
            if let stream {
                pa_stream_set_write_callback(stream, nil, nil)
                pa_stream_set_state_callback(stream, nil, nil)
                pa_stream_disconnect(stream)
                pa_stream_unref(stream)
            }
            stream = nil
            if let context {
                pa_context_set_state_callback(context, nil, nil)
                pa_context_disconnect(context)
                pa_context_unref(context)
            }
            context = nil
        }
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    private func withLock<T>(_ body: () throws(SoundDeviceError) -> T) throws(SoundDeviceError) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    private func withLock<T>(_ body: () -> T) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return body()
    }

    private func errorText() -> String {
        guard let context else { return "no connection" }
        return String(cString: pa_strerror(pa_context_errno(context)))
    }
}
