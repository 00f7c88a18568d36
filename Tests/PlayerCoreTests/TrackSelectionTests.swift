import FFmpegKit
import PlayerCore
import Testing

/// mpv's automatic track choice, and the subtitle timeline's bookkeeping.
struct TrackSelectionTests {
    static func track(_ id: Int, _ language: String?, isDefault: Bool = false, isForced: Bool = false,
                      external: Bool = false, autoLoaded: Bool = false) -> MediaTrack {
        MediaTrack(id: id, source: external ? .external(path: "/x/\(id).srt") : .stream(id), codec: "subrip",
                   language: language, isDefault: isDefault, isForced: isForced, autoLoaded: autoLoaded)
    }

    @Test func subtitlesNeedAReasonToShow() {
        let tracks = [Self.track(1, "eng"), Self.track(2, "ger")]
        #expect(TrackSelection.choose(.auto, among: tracks, languages: [], subtitles: true) == nil)
        #expect(TrackSelection.choose(.auto, among: tracks, languages: [], subtitles: false)?.id == 1)  // audio always plays
    }

    @Test func languageBeatsForcedBeatsDefault() {
        let tracks = [Self.track(1, "eng", isDefault: true), Self.track(2, "ger", isForced: true), Self.track(3, "fre")]
        #expect(TrackSelection.choose(.auto, among: tracks, languages: [], subtitles: true)?.id == 2)
        #expect(TrackSelection.choose(.auto, among: tracks, languages: ["fr", "de"], subtitles: true)?.id == 3)
        #expect(TrackSelection.choose(.auto, among: tracks, languages: ["de", "fr"], subtitles: true)?.id == 2)
        #expect(TrackSelection.choose(.auto, among: [Self.track(1, nil), Self.track(2, nil, isDefault: true)],
                                      languages: [], subtitles: true)?.id == 2)
    }

    @Test func externalFilesComeFirstGivenBeforeFound() {
        let tracks = [Self.track(1, "eng", isDefault: true), Self.track(2, nil, external: true, autoLoaded: true),
                      Self.track(3, nil, external: true)]
        #expect(TrackSelection.choose(.auto, among: tracks, languages: ["en"], subtitles: true)?.id == 3)
        #expect(TrackSelection.choose(.auto, among: Array(tracks.prefix(2)), languages: ["en"], subtitles: true)?.id == 2)
    }

    @Test func explicitChoices() {
        let tracks = [Self.track(1, "eng"), Self.track(2, "ger", isDefault: true)]
        #expect(TrackSelection.choose(.id(1), among: tracks, languages: [], subtitles: true)?.id == 1)
        #expect(TrackSelection.choose(.id(7), among: tracks, languages: [], subtitles: true) == nil)
        #expect(TrackSelection.choose(.none, among: tracks, languages: [], subtitles: true) == nil)
        #expect(TrackChoice(trackArgument: "no") == TrackChoice.none)
        #expect(TrackChoice(trackArgument: "2") == .id(2))
        #expect(TrackChoice(trackArgument: "0") == nil)
        #expect(TrackChoice(trackArgument: "two") == nil)
    }

    @Test func openEndedCuesEndAtTheNextAndOldOnesArePruned() {
        var timeline = SubtitleTimeline()
        let bitmap = SubtitleEvent.Content.ass(["0,0,Default,,0,0,0,,x"])
        timeline.add(SubtitleEvent(start: 1, end: nil, content: bitmap))
        #expect(timeline.active(at: 100).count == 1)
        timeline.add(SubtitleEvent(start: 3, end: nil, content: .bitmaps([])))  // a "clear"
        #expect(timeline.active(at: 2).count == 1 && timeline.active(at: 3).isEmpty)
        timeline.prune(before: 3 + SubtitleTimeline.retention + 0.1)
        #expect(timeline.cues.isEmpty)
    }
}
