import CALSA
import FFmpegKit
import Foundation
import Synchronization

/// One ALSA playback PCM (a card's `hw:`/`plughw:` device, `default`, or any PCM of the ALSA
/// configuration, such as the `pulse` plugin's) and the thread that feeds it. Owns the PCM (and the
/// configuration it was opened from) and frees them in ``close()`` (or when released).
///
/// The thread waits until a period's room is free, asks the driver for the delay
/// (`snd_pcm_avail_delay`: the frames queued ahead of a frame written now, the device's own
/// delay included), reports it, and then renders the mixer into that room. So every pull is placed
/// at the instant it will be heard, as with ``PulseStream``. After an underrun the PCM is prepared
/// again and the next pull is placed by the delay then (what came late is not played late).
final class ALSAStream: SoundStream, @unchecked Sendable {
    /// Periods in the buffer: the thread wakes once a period is free, so with four it refills a
    /// 50 ms buffer every 12.5 ms, and a late wake-up of up to three periods is not heard.
    static let periods: UInt32 = 4
    /// The longest the thread waits for room before it looks whether it is closing (ms).
    static let waitTimeout: Int32 = 100

    let format: AudioFormat
    let device: String
    private let pcm: OpaquePointer
    /// The configuration the PCM was opened from, when the place gave its own; freed after the PCM.
    private let configuration: OpaquePointer?
    /// What the PCM takes: 32-bit floats, or 16-bit integers converted from the mixer's floats.
    private let takesFloats: Bool
    private let bufferFrames: Int
    private let periodFrames: Int
    private let mixer: SoundMixer
    private let delay: OutputDelayReading
    private let onLost: SoundStreamLost
    private let started = Atomic<Bool>(false)
    private let closing = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// Signalled by the thread as it ends.
    private let ended = DispatchSemaphore(value: 0)

    /// Opens `place`'s device for playback near `format` (the device may choose another rate or
    /// channel count: ``format`` is what it plays). Throws, naming the device, when it cannot.
    init(format wanted: AudioFormat, place: ALSAPlace, mixer: SoundMixer, delay: OutputDelayReading,
         onLost: @escaping SoundStreamLost) throws(SoundDeviceError) {
        tandem_alsa_quiet()
        device = place.device
        self.mixer = mixer
        self.delay = delay
        self.onLost = onLost
        let fail = { (what: String, code: Int32) in SoundDeviceError(reason: "ALSA \(place.device): \(what) (\(ALSAStream.text(code)))") }
        configuration = try Self.loadConfiguration(place)
        var opened: OpaquePointer?
        // Non-blocking: a card another program holds is an error at once, not a wait.
        let code = configuration.map { snd_pcm_open_lconf(&opened, place.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK, $0) }
            ?? snd_pcm_open(&opened, place.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard code >= 0, let opened else {
            if let configuration { snd_config_delete(configuration) }
            throw fail("cannot open it", code)
        }
        pcm = opened
        do throws(SoundDeviceError) {
            let setup = try Self.configure(opened, wanted: wanted, buffer: place.buffer, fail: fail)
            format = setup.format
            takesFloats = setup.floats
            bufferFrames = setup.bufferFrames
            periodFrames = setup.periodFrames
        } catch {
            snd_pcm_close(opened)
            if let configuration { snd_config_delete(configuration) }
            throw error
        }
    }

    deinit { close() }

    private struct Setup {
        var format: AudioFormat
        var floats: Bool
        var bufferFrames: Int
        var periodFrames: Int
    }

    /// Hardware parameters (interleaved frames, float or 16-bit, the rate and channels nearest the
    /// wanted ones, the buffer and periods) and software ones (start on the first frame, wake once a
    /// period is free).
    private static func configure(_ pcm: OpaquePointer, wanted: AudioFormat, buffer: Double,
                                  fail: (String, Int32) -> SoundDeviceError) throws(SoundDeviceError) -> Setup {
        var hw: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hw) >= 0, let hw else { throw fail("no memory for its parameters", -ENOMEM) }
        defer { snd_pcm_hw_params_free(hw) }
        var code = snd_pcm_hw_params_any(pcm, hw)
        guard code >= 0 else { throw fail("no parameters", code) }
        code = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)
        guard code >= 0 else { throw fail("no interleaved access", code) }
        let floats = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_FLOAT_LE) >= 0
        if !floats {
            code = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)
            guard code >= 0 else { throw fail("plays neither 32-bit float nor 16-bit samples (try plughw: or default)", code) }
        }
        var channels = UInt32(wanted.channels)
        code = snd_pcm_hw_params_set_channels_near(pcm, hw, &channels)
        guard code >= 0 else { throw fail("no channel count near \(wanted.channels)", code) }
        var rate = UInt32(wanted.sampleRate)
        code = snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, nil)
        guard code >= 0 else { throw fail("no rate near \(wanted.sampleRate) Hz", code) }
        var bufferTime = UInt32((buffer * 1e6).rounded())
        code = snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, nil)
        guard code >= 0 else { throw fail("no buffer near \(Int(buffer * 1000)) ms", code) }
        var periods = Self.periods
        _ = snd_pcm_hw_params_set_periods_near(pcm, hw, &periods, nil)
        code = snd_pcm_hw_params(pcm, hw)
        guard code >= 0 else { throw fail("refused the parameters", code) }
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_buffer_size(hw, &bufferSize)
        snd_pcm_hw_params_get_period_size(hw, &periodSize, nil)
        guard bufferSize > 0, periodSize > 0 else { throw fail("no buffer", -EINVAL) }

        var sw: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&sw) >= 0, let sw else { throw fail("no memory for its parameters", -ENOMEM) }
        defer { snd_pcm_sw_params_free(sw) }
        snd_pcm_sw_params_current(pcm, sw)
        snd_pcm_sw_params_set_start_threshold(pcm, sw, 1)
        snd_pcm_sw_params_set_avail_min(pcm, sw, periodSize)
        code = snd_pcm_sw_params(pcm, sw)
        guard code >= 0 else { throw fail("refused the software parameters", code) }
        code = snd_pcm_prepare(pcm)
        guard code >= 0 else { throw fail("cannot be prepared", code) }
        return Setup(format: AudioFormat(sampleRate: Int(rate), channels: Int(channels), sample: .float32), floats: floats,
                     bufferFrames: Int(bufferSize), periodFrames: Int(periodSize))
    }

    /// The place's own configuration (ALSA's configuration syntax), loaded into a tree of its own.
    private static func loadConfiguration(_ place: ALSAPlace) throws(SoundDeviceError) -> OpaquePointer? {
        guard let text = place.configuration else { return nil }
        var top: OpaquePointer?
        guard snd_config_top(&top) >= 0, let top else { throw SoundDeviceError(reason: "ALSA \(place.device): no memory for its configuration") }
        var input: OpaquePointer?
        var code = text.withCString { snd_input_buffer_open(&input, $0, strlen($0)) }
        if code >= 0, let input {
            code = snd_config_load(top, input)
            snd_input_close(input)
        }
        guard code >= 0 else {
            snd_config_delete(top)
            throw SoundDeviceError(reason: "ALSA \(place.device): its configuration does not parse (\(Self.text(code)))")
        }
        return top
    }

    static func text(_ code: Int32) -> String { String(cString: snd_strerror(code)) }

    // MARK: Playing

    /// Starts the thread that feeds the PCM (once).
    func start() {
        guard !closing.load(ordering: .acquiring), !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            feed()
            ended.signal()
        }
        thread.name = "tandem.alsa"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// The thread's loop, until ``close()`` or a failure the PCM cannot recover from.
    private func feed() {
        let channels = format.channels
        let floats = UnsafeMutableBufferPointer<Float>.allocate(capacity: bufferFrames * channels)
        let shorts = UnsafeMutableBufferPointer<Int16>.allocate(capacity: takesFloats ? 0 : bufferFrames * channels)
        defer {
            floats.deallocate()
            shorts.deallocate()
        }
        while !closing.load(ordering: .acquiring) {
            var room: snd_pcm_sframes_t = 0
            var queued: snd_pcm_sframes_t = 0
            let code = snd_pcm_avail_delay(pcm, &room, &queued)
            guard code >= 0 else {
                if recover(code) { continue } else { return }
            }
            if room < periodFrames {
                let waited = snd_pcm_wait(pcm, Self.waitTimeout)
                if waited < 0, !recover(waited) { return }
                continue
            }
            let frames = min(room, bufferFrames)
            // A frame written now is heard after the frames queued ahead of it.
            delay.report(Double(max(queued, 0)) / Double(format.sampleRate))
            let samples = UnsafeMutableBufferPointer(rebasing: floats[0..<(frames * channels)])
            mixer.render(into: UnsafeMutableRawBufferPointer(samples))
            if !takesFloats {
                for i in 0..<samples.count { shorts[i] = Int16((min(max(samples[i], -1), 1) * 32767).rounded()) }
            }
            guard write(frames, from: takesFloats ? UnsafeRawPointer(floats.baseAddress!) : UnsafeRawPointer(shorts.baseAddress!)) else { return }
        }
    }

    /// Writes `frames` frames; false when the PCM failed for good.
    private func write(_ frames: Int, from data: UnsafeRawPointer) -> Bool {
        let frameBytes = format.channels * (takesFloats ? 4 : 2)
        var done = 0
        while done < frames, !closing.load(ordering: .acquiring) {
            let wrote = snd_pcm_writei(pcm, data + done * frameBytes, snd_pcm_uframes_t(frames - done))
            if wrote == -Int(EAGAIN) {
                _ = snd_pcm_wait(pcm, Self.waitTimeout)
                continue
            }
            guard wrote >= 0 else {
                // An underrun mid-write: the rest is late; the next pull is placed anew.
                return recover(Int32(wrote))
            }
            done += wrote
        }
        return true
    }

    /// After an error: an underrun or a suspend is recovered (counted, prepared again); anything else
    /// (the device unplugged, the sound server gone) is a loss, told once. False on a loss.
    private func recover(_ code: Int32) -> Bool {
        if code == -EPIPE { delay.underflowed() }
        if code == -EINTR || code == -EAGAIN { return true }
        if snd_pcm_recover(pcm, code, 1) >= 0 { return true }
        if !closing.load(ordering: .acquiring) {
            onLost("the ALSA device \(device) failed (\(Self.text(code)))")
        }
        return false
    }

    // MARK: Closing

    /// Ends the thread, then drops what is queued and closes the PCM. Idempotent; not on the
    /// stream's own thread.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        closing.store(true, ordering: .releasing)
        if started.load(ordering: .acquiring) { ended.wait() }
        snd_pcm_drop(pcm)
        snd_pcm_close(pcm)
        if let configuration { snd_config_delete(configuration) }
    }
}
