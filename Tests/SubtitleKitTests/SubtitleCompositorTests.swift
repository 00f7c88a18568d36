import FFmpegKit
import Foundation
import PlayerCore
import SubtitleKit
import Testing

/// Subtitles drawn on the pictures of a real player (FFmpeg's subtitle decoders, libass), checked
/// in the pixels: text where and when it should be, nothing elsewhere.
@Suite struct SubtitleCompositorTests {
    /// Rows of a 320x240 picture where bottom- and top-aligned lines of the default style land.
    static let bottom = 180..<240
    static let top = 0..<60
    /// Enough white pixels for a line of text; a grey picture has none.
    static let textPixels = 40

    /// Today's bug: a default-flagged SRT track in an mkv shows nothing.
    @Test func aDefaultSRTTrackInAnMKVShowsDuringItsEventsOnly() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        let mkv = try await media.mkv("srt.mkv", subtitles: [(try media.write("b.srt", SubtitleMedia.bottomSRT), "eng", true)])
        let options = SubtitleOptions(renderer: SubtitleCompositor())
        for (time, shown) in [(1.48, true), (2.48, false), (3.52, true), (0.52, false), (4.52, false)] {
            let (picture, player) = try await pictureWithSubtitles(mkv, at: time, options: options)
            let bright = picture.brightPixels(rows: Self.bottom)
            #expect(shown ? bright > Self.textPixels : bright == 0, "at \(time) s: \(bright) text pixels")
            #expect(picture.brightPixels(rows: 0..<170) == 0, "at \(time) s: text outside the bottom")
            #expect(player.subtitleTrack == 1)
            await player.close()
        }
    }

    /// mpv's choice: the default flag without preferences, the language with `--slang`, the id with
    /// `--sid`, none with `--sid no`.
    @Test func theTrackIsChosenByFlagsLanguageAndID() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        let top = try media.write("top.srt", SubtitleMedia.topSRT)
        let bottom = try media.write("bottom.srt", SubtitleMedia.bottomSRT)
        let mkv = try await media.mkv("two.mkv", subtitles: [(top, "eng", false), (bottom, "ger", true)])
        func shown(_ choice: TrackChoice, languages: [String] = []) async throws -> (top: Int, bottom: Int, track: Int?) {
            let options = SubtitleOptions(renderer: SubtitleCompositor(), choice: choice, languages: languages)
            let (picture, player) = try await pictureWithSubtitles(mkv, at: 1.48, options: options)
            defer { Task { await player.close() } }
            #expect(player.subtitleTracks.map(\.language) == ["eng", "ger"])
            return (picture.brightPixels(rows: Self.top), picture.brightPixels(rows: Self.bottom), player.subtitleTrack)
        }
        let byDefault = try await shown(.auto)
        #expect(byDefault.track == 2 && byDefault.bottom > Self.textPixels && byDefault.top == 0)
        let byLanguage = try await shown(.auto, languages: ["en"])
        #expect(byLanguage.track == 1 && byLanguage.top > Self.textPixels && byLanguage.bottom == 0)
        let byID = try await shown(.id(1))
        #expect(byID.track == 1 && byID.top > Self.textPixels && byID.bottom == 0)
        let none = try await shown(.none)
        #expect(none.track == nil && none.top == 0 && none.bottom == 0)
    }

    /// Switching tracks, hiding and delaying take effect at the next picture (a seek shows one).
    @Test func switchingHidingAndDelayingChangeThePicture() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        let mkv = try await media.mkv("two.mkv", subtitles: [(try media.write("top.srt", SubtitleMedia.topSRT), "eng", false),
                                                      (try media.write("bottom.srt", SubtitleMedia.bottomSRT), "ger", true)])
        let sink = LatestPicture()
        var options = PlayerOptions(videoSink: sink, audioSink: nil, fast: true)
        options.subtitles = SubtitleOptions(renderer: SubtitleCompositor())
        let player = try await Player.open(mkv, options: options)
        defer { Task { await player.close() } }
        func at(_ time: Double) async throws -> RGBAImage {
            await player.seek(to: time)
            return try #require(sink.latest?.image)
        }
        #expect(try await at(1.48).brightPixels(rows: Self.bottom) > Self.textPixels)
        player.selectSubtitleTrack(1)
        let switched = try await at(1.52)
        #expect(switched.brightPixels(rows: Self.top) > Self.textPixels && switched.brightPixels(rows: Self.bottom) == 0)
        player.setSubtitlesVisible(false)
        #expect(try await at(1.48).brightPixels(rows: Self.top) == 0)
        player.setSubtitlesVisible(true)
        player.selectSubtitleTrack(2)
        // 1–2 s delayed by 0.7 s: shown at 2.6, gone at 1.2.
        player.setSubtitleDelay(0.7)
        #expect(try await at(2.6).brightPixels(rows: Self.bottom) > Self.textPixels)
        #expect(try await at(1.2).brightPixels(rows: Self.bottom) == 0)
    }

    /// An ASS script's own style and position, as ffmpeg's `subtitles` filter (libass too) draws the
    /// same frame: the same pixels change, within a few pixels of anti-aliasing and chroma.
    @Test func anASSTrackLooksAsFFmpegsSubtitlesFilterDrawsIt() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        let ass = try media.write("mid.ass", SubtitleMedia.middleASS)
        let mkv = try await media.mkv("ass.mkv", subtitles: [(ass, "eng", true)])
        let (ours, player) = try await pictureWithSubtitles(mkv, at: 1.6, options: SubtitleOptions(renderer: SubtitleCompositor()))
        await player.close()
        let plain = try await pictureWithSubtitles(mkv, at: 1.6, options: SubtitleOptions(renderer: SubtitleCompositor(), choice: .none))
        await plain.1.close()
        // ffmpeg's reference: the filter on the same file, frame 40 (1.6 s at 25 fps).
        let reference = media.path("reference.png")
        try await SubtitleMedia.ffmpeg(["-i", mkv, "-vf", "subtitles=\(ass)", "-ss", "1.6", "-frames:v", "1", reference])
        let theirs = try StillPicture.decode(reference, maxSide: 4096)
        #expect(ours.yellowPixels(rows: 80..<160) > Self.textPixels)
        let ourText = ours.differingPixels(from: plain.0)
        let theirText = theirs.differingPixels(from: plain.0)
        #expect(!ourText.isEmpty && !theirText.isEmpty)
        // Same bounding box within 3 px, same amount of changed pixels within 15 %.
        func box(_ points: [(x: Int, y: Int)]) -> [Int] {
            [points.map(\.x).min() ?? 0, points.map(\.y).min() ?? 0, points.map(\.x).max() ?? 0, points.map(\.y).max() ?? 0]
        }
        #expect(zip(box(ourText), box(theirText)).allSatisfy { abs($0 - $1) <= 3 }, "ours \(box(ourText)), ffmpeg's \(box(theirText))")
        let ratio = Double(ourText.count) / Double(max(theirText.count, 1))
        #expect(ratio > 0.85 && ratio < 1.15, "changed pixels: ours \(ourText.count), ffmpeg's \(theirText.count)")
    }

    /// `--sub-file` and a same-named file next to the video: external tracks come after the file's
    /// own and are preferred to them; a language suffix in the name is the track's language.
    @Test func externalFilesAreTracksAndPreferred() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        let video = try await media.video("film.mkv")
        try media.write("film.en.srt", SubtitleMedia.topSRT)
        try media.write("other.srt", SubtitleMedia.bottomSRT)
        let found = SubtitleOptions.ExternalFile.discovered(nextTo: video)
        #expect(found == [.init(path: media.path("film.en.srt"), autoLoaded: true)])
        let options = SubtitleOptions(renderer: SubtitleCompositor(),
                                      externalFiles: [.init(path: media.path("other.srt"))] + found)
        let (picture, player) = try await pictureWithSubtitles(video, at: 1.48, options: options)
        defer { Task { await player.close() } }
        #expect(player.subtitleTracks.map(\.id) == [1, 2])
        #expect(player.subtitleTracks.map(\.language) == [nil, "en"])
        #expect(player.subtitleTrack == 1)  // given beats found
        #expect(picture.brightPixels(rows: Self.bottom) > Self.textPixels && picture.brightPixels(rows: Self.top) == 0)
    }

    /// A `--sub-file` that is not there fails the open, naming the file.
    @Test func aMissingSubtitleFileFailsTheOpen() async throws {
        let media = try SubtitleMedia()
        defer { media.remove() }
        let video = try await media.video("film.mkv")
        var options = PlayerOptions(videoSink: LatestPicture(), audioSink: nil, fast: true)
        options.subtitles = SubtitleOptions(renderer: SubtitleCompositor(), externalFiles: [.init(path: media.path("none.srt"))])
        do {
            _ = try await Player.open(video, options: options)
            Issue.record("opened with a missing subtitle file")
        } catch {
            #expect(error.description == "\(media.path("none.srt")): no such file")
        }
    }
}
