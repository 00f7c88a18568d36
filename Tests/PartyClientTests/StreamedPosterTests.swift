import Foundation
import Logging
import PartyKit
import PartyServer
import PartyClient
import PlayerCore
import StoryKit
import Testing

/// A member's stories over items streamed from the party: their posters are fetched with the
/// party's media credential, as their players are, so the server refuses nothing.
@Suite(.serialized) struct StreamedPosterTests {
    static let party = "poster-night"
    static let key = "p0ster-key"

    @Test func streamedPostersCarryTheMediaToken() async throws {
        let server = PartyServerRunner(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        let port = try await server.start()
        server.media.serve(party: Self.party, key: Self.key,
                           files: [0: PartyLoopbackTests.media + "/party.mp4", 1: PartyLoopbackTests.media + "/h264-aac.mp4"])
        // Everything the member sends and gets crosses the proxy: a refusal cannot go unseen.
        let proxy = RecordingProxy()
        let proxyPort = try await proxy.start(targetPort: port)
        // Resolved as a member without copies resolves them: streamed, with the credential.
        let stories = (0..<2).map { index in
            let item = PartyLoopbackTests.item(index == 0 ? "party.mp4" : "h264-aac.mp4")
            let media = MediaResolver.resolve(item, index: index, party: Self.party, key: Self.key,
                                              base: "http://127.0.0.1:\(proxyPort)", folders: [])
            return Story(url: media.url, title: item.title, inputOptions: media.inputOptions)
        }
        #expect(stories.allSatisfy { $0.url.contains("/media/") && $0.inputOptions["headers"] != nil })
        var options = StoryNavigator.Options()
        options.autoAdvance = false
        options.playerOptions = { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: nil) }
        let navigator = StoryNavigator(stories: stories, options: options)
        await navigator.play()
        let opened = await navigator.currentPlayer != nil
        // Joins the loads the navigator started ahead (or makes them): keyframe posters of both streams.
        let first = await navigator.posters.poster(for: 0)
        let second = await navigator.posters.poster(for: 1)
        await navigator.close()
        await proxy.stop()
        await server.stop()

        #expect(opened, "story 0's player opened over the stream")
        #expect((try? first.get())?.source == .keyframe, "\(first)")
        #expect((try? second.get())?.source == .keyframe, "\(second)")
        let capture = proxy.capture
        let fetched = capture.contains(utf8: "GET /party/\(Self.party)/media/1")
        let refused = capture.contains(utf8: " 403 Forbidden")
        #expect(fetched, "the poster of story 1 was fetched through the proxy")
        #expect(!refused, "no request went without the media token")
        #expect(server.media.servedBodies > 0)
    }
}
