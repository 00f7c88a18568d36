import Foundation
import PlayerCore
import Testing
import TandemWindow
@testable import TandemCLI

/// `--sid`, `--slang` and `--sub-file` of host, join and stories reach the players of the party's
/// (or the story list's) window: each member's own subtitle choice.
@Suite struct PartySubtitlesTests {
    @Test func theWindowsPlayersGetTheMembersSubtitles() async throws {
        let folder = try SubtitleCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let film = folder.appendingPathComponent("film.mkv").path
        let extra = folder.appendingPathComponent("extra.srt")
        try SubtitleCommandTests.srt.write(to: extra, atomically: true, encoding: .utf8)

        // As `tandem host film.mkv --sub-file extra.srt --sid 2` builds them: the given file, then film.srt found beside it.
        let choice = PartySubtitles(choice: .id(2), languages: ["en"], files: [extra.path])
        let sinks = StorySinks(urls: [film], sound: false, subtitles: { choice.options(for: [film][$0]) }, warn: { _ in })
        let player = try await Player.open(film, options: sinks.playerOptions(for: 0))
        #expect(player.subtitleTracks.count == 2, "the given file and the same-named one")
        #expect(player.subtitleTrack == 2, "the member's --sid")
        await player.close()

        // Without subtitles asked for (the default of StorySinks): none are decoded.
        let plain = StorySinks(urls: [film], sound: false, warn: { _ in })
        let bare = try await Player.open(film, options: plain.playerOptions(for: 0))
        #expect(bare.subtitleTracks.isEmpty)
        await bare.close()
    }

    @Test func subtitleOptionsParseOnHostJoinAndStories() throws {
        let join = try JoinCommand.parse(["tandem+insecure://127.0.0.1:9/party/p?key=k", "--sid", "no", "--slang", "de, en"])
        #expect(join.sid == TrackChoice.none)
        #expect(PlayCommand.languages(join.slang) == ["de", "en"])
        #expect(throws: (any Error).self) { try HostCommand.parse(["a.mp4", "--sub-file", "/nonexistent/x.srt"]) }
        let stories = try StoriesCommand.parse(["a.mp4", "--sid", "1"])
        #expect(stories.sid == .id(1))
    }
}
