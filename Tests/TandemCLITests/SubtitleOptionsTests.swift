import Testing
import PlayerCore
@testable import TandemCLI

/// `--sid`, `--slang` and `--sub-file` as host, join and stories parse them.
@Suite struct SubtitleOptionsTests {
    @Test func subtitleOptionsParseOnHostJoinAndStories() throws {
        let join = try JoinCommand.parse(["tandem+insecure://127.0.0.1:9/party/p?key=k", "--sid", "no", "--slang", "de, en"])
        #expect(join.subtitleOptions.sid == TrackChoice.none)
        #expect(join.subtitleOptions.subtitles.languages == ["de", "en"])
        #expect(throws: (any Error).self) { try HostCommand.parse(["a.mp4", "--sub-file", "/nonexistent/x.srt"]) }
        let stories = try StoriesCommand.parse(["a.mp4", "--sid", "1"])
        #expect(stories.sid == .id(1))
    }
}
