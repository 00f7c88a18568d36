import Testing
import YtdlKit

/// The format chosen by `--ytdl-format` among a page's formats: the hand-written watch page (video-only,
/// sound-only and combined formats; DRM, DASH fragments, a storyboard), the generic extractor's
/// recorded answers, and each way of choosing nothing.
@Suite struct FormatSelectorTests {
    static func chosen(_ spec: String, _ fixture: String = "multi-format.json", decodes: (@Sendable (String) -> Bool)? = nil) throws -> FormatSelection {
        try FormatSelector.select(try FormatSpecParser.parse(spec), from: try Fixtures.info(fixture).formats,
                                  playability: Playability(decodes: decodes))
    }

    static func failure(_ spec: String, formats: [YtdlFormat], decodes: (@Sendable (String) -> Bool)? = nil) throws -> FormatSelectionFailure? {
        let parsed = try FormatSpecParser.parse(spec)
        do throws(FormatSelectionFailure) {
            _ = try FormatSelector.select(parsed, from: formats, playability: Playability(decodes: decodes))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        // One format with both: the last playable (the DRM one is skipped).
        ("best", "hls-1080"), ("b", "hls-1080"), ("worst", "18"),
        ("best[height<=720]", "22"), ("best[height<=480]", "18"), ("[height<=720]", "22"),
        ("best[ext=mp4][protocol=https]", "22"), ("best[vcodec^=avc1.64]", "hls-1080"),
        // By ID, whatever it holds; by extension, the best single format of it.
        ("22", "22"), ("137", "137"), ("hls-1080", "hls-1080"), ("mp4", "hls-1080"), ("m4a", "140"),
        // Sound only, video only.
        ("bestaudio", "251"), ("bestaudio[ext=m4a]", "140"), ("worstaudio", "139"), ("ba[language=en][abr<100]", "249"),
        ("bestvideo", "400"), ("bv[vcodec!^=av01]", "137"), ("worstvideo", "134"), ("bv*", "400"), ("b*", "400"),
        // Alternatives: the first that selects.
        ("bv[height>2000]+ba/22/best", "22"), ("webm/best[height<=360]", "18"),
        // Filters with ? let formats without the field through.
        ("bestaudio[height<=?720]", "251"), ("bestaudio[height<=720]/18", "18"),
    ])
    func theFormatChosen(spec: String, id: String) throws {
        let selection = try Self.chosen(spec)
        #expect(selection.format.formatID == id, "\(spec)")
        #expect(selection.audio == nil)
    }

    @Test func aMergeOfSeparateVideoAndSoundPlaysBoth() throws {
        let selection = try Self.chosen("bestvideo+bestaudio/best")
        #expect(selection.format.formatID == "400" && selection.audio?.formatID == "251")
        #expect(selection.summary == "\(selection.format.summary)+\(selection.audio!.summary)")
        // The default spec does the same, as yt-dlp's.
        let standard = try FormatSelector.select(.standard, from: try Fixtures.info("multi-format.json").formats)
        #expect(standard.format.formatID == "400" && standard.audio?.formatID == "251")
    }

    @Test func eachSideOfAMergeHasItsOwnFilters() throws {
        // 247 (its DRM only "maybe") is the best video-only format to 720p.
        let selection = try Self.chosen("bestvideo[height<=720]+bestaudio[ext=m4a]/best")
        #expect(selection.format.formatID == "247" && selection.audio?.formatID == "140")
        let worst = try Self.chosen("worstvideo+worstaudio")
        #expect(worst.format.formatID == "134" && worst.audio?.formatID == "139")
    }

    @Test func aMergeWhoseVideoHasSoundPlaysIt() throws {
        // bv* may pick a format with both: nothing to merge.
        let selection = try Self.chosen("bv*[acodec^=mp4a][height<=720]+ba")
        #expect(selection.format.formatID == "22" && selection.audio == nil)
    }

    @Test func aMergeWithoutSoundToAddTriesTheNextAlternative() throws {
        let video = try Fixtures.info("multi-format.json").formats.filter { $0.hasVideo && !$0.hasAudio }
        let failure = try Self.failure("bestvideo+bestaudio", formats: video)
        #expect(failure?.description.hasPrefix("no format matches --ytdl-format \"bestvideo+bestaudio\"") == true, "\(String(describing: failure))")
        #expect(try FormatSelector.select(FormatSpecParser.parse("bestvideo+bestaudio/bestvideo"), from: video).format.formatID == "400")
    }

    @Test func formatsWithoutADecoderAreNotChosen() throws {
        let noAV1: @Sendable (String) -> Bool = { $0 != "av1" }
        #expect(try Self.chosen("bestvideo", decodes: noAV1).format.formatID == "137")
        #expect(try Self.chosen("bestvideo+bestaudio", decodes: noAV1).format.formatID == "137")
    }

    @Test func theGenericExtractorsFormatsArePlayed() throws {
        for spec in ["best", "bestvideo*+bestaudio/best", "worst", "bv*"] {
            #expect(try Self.chosen(spec, "generic-video.json").format.url == "http://127.0.0.1:18765/clip.mp4", "\(spec)")
            #expect(try Self.chosen(spec, "generic-hls.json").format.url == "http://127.0.0.1:18765/hls/stream.m3u8", "\(spec)")
        }
        #expect(try Self.chosen("best[height<=240]", "generic-hls.json").format.formatID == "hls-253")
        // Its codecs are unknown: a filter on them fails without ?, passes with it.
        #expect(try Self.failure("best[vcodec^=avc1]", formats: Fixtures.info("generic-video.json").formats) != nil)
        #expect(try Self.chosen("best[vcodec^=?avc1]", "generic-video.json").format.formatID == "0")
    }

    @Test func aPageOfSoundOnlyGivesItsBestForBest() throws {
        let audio = try Fixtures.info("multi-format.json").formats.filter { !$0.hasVideo && $0.hasAudio }
        #expect(try FormatSelector.select(FormatSpecParser.parse("best"), from: audio).format.formatID == "251")
        #expect(try FormatSelector.select(.standard, from: audio).format.formatID == "251")
    }

    @Test func noPlayableFormatSaysWhyForEach() throws {
        let formats = try Fixtures.info("multi-format.json").formats.filter { ["sb0", "drm-720", "dash-1080"].contains($0.formatID) }
        #expect(try Self.failure("best", formats: formats) == .nothingPlayable(["storyboard pictures", "encrypted (DRM)", "DASH fragments (fetched by yt-dlp itself)"]))
        #expect(FormatSelectionFailure.nothingPlayable(["encrypted (DRM)", "encrypted (DRM)", "storyboard pictures"]).description
                == "no format Tandem can play (3 formats: 2 encrypted (DRM), storyboard pictures)")
        let opusOnly = [YtdlFormat(formatID: "a", url: "https://a", protocol: "https", vcodec: "none", acodec: "opus")]
        #expect(try Self.failure("best", formats: opusOnly, decodes: { $0 != "opus" }) == .nothingPlayable(["opus (no decoder in this FFmpeg)"]))
        #expect(try Self.failure("best", formats: []) == .noFormats)
    }

    @Test func noMatchNamesTheSpecAndThePlayableFormats() throws {
        let formats = try Fixtures.info("generic-hls.json").formats
        let failure = try #require(try Self.failure("best[height>=1080]", formats: formats))
        #expect(failure.description == "no format matches --ytdl-format \"best[height>=1080]\" (playable: hls-253 mp4 320x240)")
    }

    @Test func separateVideoAndSoundWithoutACombinedFormatPlayTogether() throws {
        let separate = try Fixtures.info("multi-format.json").formats.filter { $0.hasVideo != $0.hasAudio }
        let selection = try FormatSelector.select(FormatSpecParser.parse("bestvideo*+bestaudio/best"), from: separate)
        #expect(selection.format.formatID == "400" && selection.audio?.formatID == "251")
    }

    @Test(arguments: [
        ("avc1.64001F", "h264"), ("avc3.4d401e", "h264"), ("hvc1.1.6.L93.90", "hevc"), ("vp09.00.40.08", "vp9"), ("vp9", "vp9"),
        ("av01.0.08M.08", "av1"), ("mp4a.40.2", "aac"), ("mp4a.6B", "mp3"), ("opus", "opus"), ("ec-3", "eac3"), ("ac-3", "ac3"),
    ])
    func codecNamesMapToFFmpegs(ytdl: String, ffmpeg: String) {
        #expect(Playability.ffmpegCodec(ytdl) == ffmpeg)
    }

    @Test func unknownCodecsAndNoneAreNotRefused() {
        #expect(Playability.ffmpegCodec("none") == nil && Playability.ffmpegCodec("magic.1") == nil)
        let playability = Playability(decodes: { _ in false })
        #expect(playability.problem(with: YtdlFormat(formatID: "x", url: "https://a", protocol: "https", vcodec: "magic.1", acodec: "none")) == nil)
        #expect(playability.problem(with: YtdlFormat(formatID: "x", url: "rtmp://a/live", vcodec: "none", acodec: "weird")) == nil)
        #expect(playability.problem(with: YtdlFormat(formatID: "x", url: "https://a", protocol: "f4m")) == "Adobe HDS")
    }
}
