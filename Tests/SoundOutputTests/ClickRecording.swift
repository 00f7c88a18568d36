import Foundation
import PlayerCore
import SoundOutput
import TestSupport

/// What the heard-together tests share: outputs on the recording's left and right playing clicks from one
/// instant, then the recording read as the right's lag behind the left per click.
enum ClickRecording {
    /// Starts a ``ClickSource`` on each sink (left first), all placing their clicks from `start`.
    static func play(on sinks: [StreamSoundDevice], from start: Double) -> [ClickSource] {
        sinks.map { sink in
            let source = ClickSource(sink: sink, start: start)
            sink.start(source, format: sink.format(sourceRate: PulseServer.rate, sourceChannels: 1))
            return source
        }
    }

    /// Stops `sinks` once what they queued has reached the recording, then `recorder`; the lags, right −
    /// left, of the clicks recorded into `path`.
    static func lags(_ path: String, recorder: ChildProcess, stopping sinks: [StreamSoundDevice],
                     after drain: Duration = .milliseconds(400)) async throws -> [Double] {
        try await Task.sleep(for: drain)  // what was queued reaches the recording
        for sink in sinks { sink.stop() }
        recorder.interrupt()
        _ = try await recorder.exit()
        let samples = try ClickTrack.read(path)
        return ClickTrack.lags(left: ClickTrack.onsets(samples, channel: 0), right: ClickTrack.onsets(samples, channel: 1))
    }

    /// The median |lag| (infinity for none).
    static func median(_ lags: [Double]) -> Double { lags.isEmpty ? .infinity : lags.map(abs).sorted()[lags.count / 2] }

    /// Lags in milliseconds to a tenth, for messages.
    static func milliseconds(_ lags: [Double]) -> [Double] { lags.map { ($0 * 1e4).rounded() / 10 } }
}
