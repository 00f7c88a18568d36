import Foundation
import SoundOutput
import Synchronization
import Testing
import TestSupport

/// The scenario both outputs' tests play when the sound server behind them dies mid-play: one warning
/// (the first of `warnings`), the player still pulled (paced without sound), and when the server is
/// back, a second line and sound heard again. Returns the first line, for the output's own wording.
func expectSoundLostAndBack(_ server: PulseServer, _ sink: StreamSoundDevice, warnings: borrowing Mutex<[String]>) async throws -> String? {
    let source = ClickSource(sink: sink, start: ClickSource.now())
    sink.start(source, format: sink.format(sourceRate: PulseServer.rate, sourceChannels: 1))
    try await waitUntil("a click played") { source.clicksWritten >= 1 }

    await server.kill()
    try await waitUntil("a warning that sound is gone") { warnings.withLock { $0.contains { $0.contains("playing on without sound") } } }
    let pulled = source.framesPulled
    try await waitUntil("pulls paced without the server") { source.framesPulled > pulled + PulseServer.rate / 2 }

    try await server.restart()
    try await waitUntil("a line that sound is back") { warnings.withLock { $0.contains { $0.contains("sound output is back") } } }
    let recording = server.folder.path("after.raw")
    let recorder = try server.record(to: recording)
    let written = source.clicksWritten
    try await waitUntil("clicks after the return") { source.clicksWritten >= written + 3 }
    try await Task.sleep(for: .milliseconds(200))  // what was queued reaches the recording
    recorder.interrupt()
    _ = try await recorder.exit()
    #expect(ClickTrack.onsets(try ClickTrack.read(recording), channel: 0).count >= 2)
    #expect(warnings.withLock { $0.count } == 2, "one line when lost, one when back: \(warnings.withLock { $0 })")
    return warnings.withLock { $0.first }
}
