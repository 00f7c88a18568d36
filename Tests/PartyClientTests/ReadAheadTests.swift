import Foundation
import PartyKit

import PlayerCore
import Testing
import TestSupport

/// A player reading the party's stream over HTTP keeps tens of seconds read ahead (a link with
/// jitter never stalls it); a local file keeps its small queues.
@Suite(.serialized) struct ReadAheadTests {
    @Test func aStreamingPlayerReadsFarAheadALocalOneDoesNot() async throws {
        try await MediaServingTests.withServer { port, _ in
            var options = PlayerOptions(videoSink: NullVideoSink(), audioSink: nil)
            options.inputOptions = ["headers": MediaToken.header(key: MediaServingTests.key, party: MediaServingTests.party)]
            let streaming = try await Player.open("http://127.0.0.1:\(port)\(MediaServingTests.path)", options: options)
            await streaming.waitUntilReady()
            #expect(streaming.buffer.streaming)
            // Paused at 0, it reads on until 30 s are queued (the file is 60 s).
            #expect(await eventually(within: 30) { streaming.buffer.readAhead >= 25 }, "\(streaming.buffer)")
            #expect(!streaming.buffer.starved, "paused: not waiting on its input")
            #expect(streaming.buffer.readAhead < 40, "bounded: \(streaming.buffer)")
            await streaming.close()

            let local = try await Player.open(MediaServingTests.file, options: PlayerOptions(videoSink: NullVideoSink(), audioSink: nil))
            await local.waitUntilReady()
            #expect(!local.buffer.streaming)
            #expect(await eventually(within: 30) { local.buffer.readAhead >= 1 }, "\(local.buffer)")
            #expect(local.buffer.readAhead < 5, "a local file keeps its small queues: \(local.buffer)")
            await local.close()
        }
    }
}
