import FFmpegKit
import Testing
@testable import WebMedia

@Suite struct SegmentIndexTests {
    let ms = Rational(1, 1000)

    @Test func segmentsCutAtTheFirstKeyframePastTheTarget() {
        let index = SegmentIndex.cutting(keyframes: [0, 1000, 2000, 3000, 4000, 5000, 6000], timeBase: ms)
        #expect(index.starts == [0, 2000, 4000, 6000])
        // Keyframes every 3 s: 3 s segments (the first past 2 s is within 5 s).
        #expect(SegmentIndex.cutting(keyframes: [0, 3000, 6000, 9000], timeBase: ms).starts == [0, 3000, 6000, 9000])
        // The first past the target is 8 s away: cut at the last one before it instead.
        #expect(SegmentIndex.cutting(keyframes: [0, 1900, 10_000, 11_000, 13_000], timeBase: ms).starts == [0, 1900, 10_000, 13_000])
        // Only far keyframes: a segment cannot start anywhere else.
        #expect(SegmentIndex.cutting(keyframes: [0, 10_000, 20_000], timeBase: ms).starts == [0, 10_000, 20_000])
        // Any order, duplicates.
        #expect(SegmentIndex.cutting(keyframes: [4000, 0, 2000, 2000], timeBase: ms).starts == [0, 2000, 4000])
        #expect(SegmentIndex.cutting(keyframes: [], timeBase: ms).count == 0)
    }

    @Test func everyTimeBelongsToExactlyOneSegment() {
        let index = SegmentIndex.cutting(keyframes: stride(from: 5, to: 60_000, by: 1000).map { Int64($0) }, timeBase: ms)
        for t in stride(from: Int64(-500), to: 61_000, by: 37) {
            let owners = (0..<index.count).filter { index.holds($0, t) }
            #expect(owners == [index.segment(holding: t)], "t \(t)")
        }
        #expect(index.span(0, containerStart: 0, duration: 60).start == 0)
        #expect(index.span(index.count - 1, containerStart: 0, duration: 60).end == 60)
        for k in 1..<index.count {
            #expect(index.span(k - 1, containerStart: 0, duration: 60).end == index.span(k, containerStart: 0, duration: 60).start)
        }
    }

    @Test func soundAloneIsCutEveryTwoSeconds() {
        let index = SegmentIndex.fixed(from: 0, to: 9 * 48_000, timeBase: Rational(1, 48_000))
        #expect(index.starts == [0, 96_000, 192_000, 288_000, 384_000])
        #expect(!index.atKeyframes)
    }
}

@Suite struct TimestampTests {
    @Test func decodeTimesIncreaseAndNeverPassPresentation() {
        // I P B b b, as x264 orders a pyramid: presentation 0 4 2 1 3 (in frames of 40 ticks).
        let pts: [Int64] = [0, 160, 80, 40, 120, 200, 360, 280, 240, 320].map { $0 + 5 }
        let made = DecodeTimestamps.make(pts: pts, nominalDelay: 80)
        #expect(made.delay == 80)
        #expect(made.dts == [-75, -35, 5, 45, 85, 125, 165, 205, 245, 285])
        #expect(zip(made.dts, made.dts.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(made.dts, pts).allSatisfy { $0 <= $1 })
        // A segment needing more than the nominal delay gets it.
        #expect(DecodeTimestamps.make(pts: [0, 160, 80, 40, 120], nominalDelay: 0).delay == 80)
    }

    @Test func audioFramesOfNeighbouringSegmentsButtTogether() {
        let grid = AudioGrid(sampleRate: 48_000)
        let starts: [Int64] = [5, 2005, 4005, 6005]
        let firsts = starts.map { grid.firstFrame(atOrAfter: $0, timeBase: Rational(1, 1000)) }
        #expect(firsts == [1, 94, 188, 282])  // ceil(t × 48000 / 1024)
        for (k, first) in firsts.enumerated() {
            // The frame before the first starts before the segment; the first starts within it.
            #expect(grid.seconds(ofFrame: first) >= Double(starts[k]) / 1000)
            #expect(grid.seconds(ofFrame: first - 1) < Double(starts[k]) / 1000)
        }
        #expect(grid.frame(holdingSample: -1) == -1 && grid.frame(holdingSample: 1023) == 0 && grid.frame(holdingSample: 1024) == 1)
    }

    @Test func sampleWindowsFillGapsWithSilenceAndDropOverlaps() {
        var window = SampleWindow(channels: 2, sampleRate: 1000)
        window.append([[1, 2], [-1, -2]], at: 10)
        window.append([[3], [-3]], at: nil)
        #expect(window.start == 10 && window.end == 13)
        window.append([[4], [-4]], at: 100)  // a gap past the tolerance (40 samples at 1 kHz): silence
        #expect(window.end == 101)
        window.append([[5], [-5]], at: 120)  // within the tolerance: right after what is held
        #expect(window.end == 102)
        window.append([Array(repeating: 7, count: 100), Array(repeating: 7, count: 100)], at: 50)  // 52 samples back: the overlap is dropped
        #expect(window.end == 150)
        #expect(window.samples(from: 8, count: 6) == [[0, 0, 1, 2, 3, 0], [0, 0, -1, -2, -3, 0]])
        #expect(window.samples(from: 99, count: 5)[0] == [0, 4, 5, 7, 7])
        #expect(window.samples(from: 148, count: 4)[1] == [7, 7, 0, 0])
    }
}

@Suite struct CodecStringTests {
    @Test func stringsAreRFC6381() {
        #expect(CodecString.avc1(extradata: [1, 0x64, 0x00, 0x1f, 0xff], profile: 100, level: 31) == "avc1.64001f")
        #expect(CodecString.avc1(extradata: [0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1e, 0x95], profile: 578, level: 30) == "avc1.42c01e")
        #expect(CodecString.avc1(extradata: [], profile: 77, level: 40) == "avc1.4d0028")
        #expect(CodecString.vp09(profile: 0, level: -99, bitDepth: 8) == "vp09.00.41.08")
        #expect(CodecString.av01(profile: 0, level: 8, bitDepth: 10) == "av01.0.08M.10")
        #expect(CodecString.mp4a(profile: 1) == "mp4a.40.2")
        #expect(CodecString.mp4a(profile: 4) == "mp4a.40.5")
        #expect(CodecString.mimeType(video: "avc1.64001f", audio: "mp4a.40.2") == "video/mp4; codecs=\"avc1.64001f, mp4a.40.2\"")
        #expect(CodecString.mimeType(video: nil, audio: "opus") == "audio/mp4; codecs=\"opus\"")
    }
}

@Suite struct WebVTTTests {
    @Test func assEventsBecomeCues() {
        let cues = [
            WebVTT.Cue(start: 4, end: nil, ass: "1,0,Default,,0,0,0,,Two lines\\Nof {\\an8}text"),
            WebVTT.Cue(start: 1, end: 2.5, ass: "0,0,Default,,0,0,0,,{\\i1}Hello{\\i0} <there> & welcome, friend"),
            WebVTT.Cue(start: 3661.5, end: 3662, ass: "2,0,Default,,0,0,0,,{\\b1}{\\i1}bold italic"),
            WebVTT.Cue(start: 7, end: 8, ass: "3,0,Default,,0,0,0,,{\\p1}m 0 0 l 1 1{\\p0}"),
        ]
        let document = WebVTT.document(cues)
        #expect(document.hasPrefix("WEBVTT\n\n"))
        #expect(document.contains("1\n00:00:01.000 --> 00:00:02.500\n<i>Hello</i> &lt;there&gt; &amp; welcome, friend\n\n"))
        #expect(document.contains("00:00:04.000 --> 00:00:07.000\nTwo lines\nof text\n\n"), "until the next cue")
        #expect(document.contains("01:01:01.500 --> 01:01:02.000\n<b><i>bold italic</i></b>\n\n"), "tags left open are closed")
        #expect(!document.contains("m 0 0"), "drawings are not text")
        #expect(WebVTT.text(fromASS: "a\\N\\Nb") == "a\nb", "no blank line inside a cue")
        #expect(WebVTT.timestamp(-1) == "00:00:00.000")
    }
}
