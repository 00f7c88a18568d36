import Foundation
import Testing
import YtdlKit

/// `yt-dlp -J` answers read into ``YtdlInfo``: recorded ones of the generic extractor, the
/// hand-written watch page, and odd or broken answers.
@Suite struct YtdlInfoTests {
    @Test func aPageWithAVideoIsOneVideoWithItsSource() throws {
        let info = try Fixtures.info("generic-video.json")
        #expect(info.kind == .video)
        #expect(info.title == "A Clip Page (1)")
        #expect(info.duration == nil)
        #expect(info.formats.count == 1)
        let format = try #require(info.formats.first)
        #expect(format.url == "http://127.0.0.1:18765/clip.mp4" && format.protocol == "http" && format.ext == "mp4")
        // The generic extractor does not know the codecs: the format may have both.
        #expect(format.vcodec == nil && format.acodec == nil && format.hasVideo && format.hasAudio)
        // The headers it is fetched with: the player sends the User-Agent and the page as Referer, not the rest.
        #expect(format.httpHeaders["Accept-Language"] == "en-us,en;q=0.5" && format.httpHeaders.count == 5)
        #expect(format.playerHeaders == ["Referer": "http://127.0.0.1:18765/page.html",
                                         "User-Agent": format.httpHeaders["User-Agent"]!])
    }

    @Test func headersWithALineBreakOrNotForThePlayerAreLeftOut() {
        var format = YtdlFormat(formatID: "0", url: "https://a/b.mp4")
        format.httpHeaders = ["Cookie": "id=1", "Referer": "https://a/\r\nX-Evil: 1", "Accept": "*/*", "X-Forwarded-For": "192.0.2.1"]
        #expect(format.playerHeaders == ["Cookie": "id=1", "X-Forwarded-For": "192.0.2.1"])
    }

    @Test func aPageWithAnHLSMasterListsItsVariant() throws {
        let info = try Fixtures.info("generic-hls.json")
        #expect(info.kind == .video && info.title == "HLS Page (1)")
        let format = try #require(info.formats.first)
        #expect(format.formatID == "hls-253" && format.protocol == "m3u8_native")
        #expect(format.url == "http://127.0.0.1:18765/hls/stream.m3u8")
        #expect(format.width == 320 && format.height == 240 && format.tbr == 253.886)
    }

    @Test func aPageWithTwoVideosIsAPlaylistOfTwo() throws {
        let info = try Fixtures.info("generic-two-videos.json")
        #expect(info.kind == .playlist && info.title == "Two Clips")
        #expect(info.entries.map(\.title) == ["Two Clips (1)", "Two Clips (2)"])
        #expect(info.entries.map { $0.formats.first?.url } == ["http://127.0.0.1:18765/clip.mp4", "http://127.0.0.1:18765/clip2.mp4"])
    }

    @Test func aFeedListedFlatIsAPlaylistOfReferences() throws {
        let info = try Fixtures.info("generic-feed.json")
        #expect(info.kind == .playlist && info.title == "A Feed")
        #expect(info.entries.map(\.kind) == [.reference, .reference])
        #expect(info.entries.map(\.title) == ["First", "Second"])
        #expect(info.entries.map(\.url) == ["http://127.0.0.1:18765/clip.mp4", "http://127.0.0.1:18765/clip2.mp4"])
    }

    @Test func aWatchPageKeepsEveryFormatInYtdlpsOrder() throws {
        let info = try Fixtures.info("multi-format.json")
        #expect(info.title == "A Watch Page" && info.duration == 212.5 && !info.isLive)
        #expect(info.formats.count == 17)
        #expect(info.formats.first?.formatID == "sb0" && info.formats.last?.formatID == "400")
        let drm = try #require(info.formats.first { $0.formatID == "drm-720" })
        #expect(drm.hasDRM == true)
        // "maybe" is not a yes: read as unknown.
        #expect(info.formats.first { $0.formatID == "247" }?.hasDRM == nil)
        let audio = try #require(info.formats.first { $0.formatID == "140" })
        #expect(!audio.hasVideo && audio.hasAudio && audio.language == "en" && audio.audioChannels == 2)
    }

    @Test func oddFieldsAndEntriesAreLeftOutNotFatal() throws {
        let json = #"""
        {"_type": "playlist", "title": 7, "entries": [null, {"title": "kept", "formats": [
            {"format_id": 18, "url": "https://a/18", "height": "tall", "vcodec": "avc1", "acodec": "mp4a.40.2"},
            {"format_id": "nourl"}]}, 3]}
        """#
        let info = try YtdlInfo.decode(Array(json.utf8))
        #expect(info.kind == .playlist && info.title == nil)
        #expect(info.entries.count == 1)
        let format = try #require(info.entries.first?.formats.first)
        #expect(info.entries.first?.formats.count == 1)
        #expect(format.formatID == "18" && format.height == nil)
    }

    @Test func aVideoDescribedAtItsTopLevelIsItsOneFormat() throws {
        let json = #"{"id": "x", "title": "T", "url": "https://a/x.mp4", "ext": "mp4", "format_id": "0", "protocol": "https"}"#
        let info = try YtdlInfo.decode(Array(json.utf8))
        #expect(info.formats.map(\.url) == ["https://a/x.mp4"])
    }

    @Test(arguments: ["", "null\n", "{not json", "[1, 2]"])
    func anAnswerThatIsNoInformationSaysSo(_ text: String) {
        #expect(throws: YtdlInfo.DecodeFailure.self) { try YtdlInfo.decode(Array(text.utf8)) }
    }
}
