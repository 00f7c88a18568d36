import FFmpegKit
import Foundation
import Testing
import TestSupport
@testable import WebMedia

/// The fragmented MP4 of a Matroska file (H.264 with B-frames, AC-3 5.1) made segment by segment,
/// checked against the ffmpeg CLI: the pictures bit for bit, their timestamps, the AAC sound.
@Suite(.serialized) struct SegmenterTests {
    init() { FFmpegLog.configure(level: .error) }

    /// The init segment and every segment of `path`, in `order`, and the geometry.
    static func remux(_ path: String, order: [Int]? = nil) throws -> (segments: [Int: [UInt8]], initSegment: [UInt8], geometry: RemuxGeometry) {
        let input = try InputFile(url: path)
        let geometry = try RemuxGeometry(input, audio: .transcode)
        let segmenter = FragmentedMP4Segmenter(input: input, geometry: geometry)
        var segments: [Int: [UInt8]] = [:]
        for k in order ?? Array(0..<geometry.index.count) { segments[k] = try segmenter.segment(k) }
        return (segments, try segmenter.initSegment(), geometry)
    }

    static func write(_ made: (segments: [Int: [UInt8]], initSegment: [UInt8], geometry: RemuxGeometry), to path: String) throws {
        var bytes = made.initSegment
        for k in made.segments.keys.sorted() { bytes += made.segments[k]! }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// ffprobe's packet field `field` of `stream` (v or a), one per line.
    static func packets(_ path: String, _ stream: String, _ fields: String) async throws -> [[String]] {
        try await Clips.ffprobe(["-select_streams", stream, "-show_entries", "packet=\(fields)", "-of", "csv=p=0", path])
            .split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    }

    @Test func theRemuxIsAValidMP4WithTheSourcesPicturesAtTheirTimes() async throws {
        let source = try await Clips.matroska()
        let made = try Self.remux(source)
        let geometry = made.geometry
        #expect(geometry.index.count == 5, "10 s at a keyframe a second: 2 s segments")
        #expect(geometry.mimeType.hasPrefix("video/mp4; codecs=\"avc1.64"), "\(geometry.mimeType)")
        #expect(geometry.mimeType.hasSuffix(", mp4a.40.2\""))
        let output = Clips.path("film-remux.mp4")
        try Self.write(made, to: output)

        // FFmpegKit opens it, as a player would.
        let info = try InputFile(url: output).info()
        #expect(info.streams.map(\.codec) == ["h264", "aac"])

        // Bit-exact pictures: ffmpeg's framemd5 of the decoded video is the source's.
        let sourceFrames = try await Clips.pictures(source)
        #expect(sourceFrames.count == 250)
        #expect(try await Clips.pictures(output) == sourceFrames)

        // The packets' presentation times, plus the index's offset, are the source's (in ms).
        let offset = geometry.timestampOffset
        let sourceTimes = try await Self.packets(source, "v", "pts_time").map { (Double($0[0])! * 1000).rounded() }
        let remuxTimes = try await Self.packets(output, "v", "pts_time").map { ((Double($0[0])! + offset) * 1000).rounded() }
        #expect(remuxTimes == sourceTimes)

        // The sound: AAC frames one after the other across every segment, as long as the source's within a frame.
        let audio = try await Self.packets(output, "a", "pts,duration")
        let pts = audio.map { Int64($0[0])! }
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $1 - $0 == 1024 }, "segments butt together")
        let decoded = try await Clips.ffprobe(["-select_streams", "a", "-count_frames", "-show_entries", "stream=codec_name", "-of", "csv=p=0", output])
        #expect(decoded.contains("aac"))
        let sourceSamples = try await Self.decodedSamples(source)
        let remuxSamples = Int64(audio.count) * 1024
        #expect(abs(remuxSamples - sourceSamples) <= 1024, "\(remuxSamples) vs \(sourceSamples)")
        // The first AAC frame starts with the source's sound, on the page's timeline.
        #expect(abs(Double(pts[0]) / 48_000 + offset) < 1024.0 / 48_000)
    }

    /// Samples the ffmpeg CLI decodes from the first audio stream of `path`.
    static func decodedSamples(_ path: String) async throws -> Int64 {
        let lines = try await Clips.ffprobe(["-select_streams", "a", "-show_entries", "frame=nb_samples", "-of", "csv=p=0", path])
        return lines.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Int64($0) } }.reduce(0, +)
    }

    @Test func segmentsMadeInAnyOrderAreTheSameBytes() async throws {
        let source = try await Clips.matroska()
        let inOrder = try Self.remux(source)
        let shuffled = try Self.remux(source, order: [3, 0, 4, 1, 2, 3])
        #expect(inOrder.initSegment == shuffled.initSegment)
        for k in 0..<inOrder.geometry.index.count {
            #expect(inOrder.segments[k] == shuffled.segments[k], "segment \(k)")
        }
    }

    @Test func aDamagedFileGivesAClearErrorNotACrash() async throws {
        let source = try await Clips.matroska()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        // Cut short while it is served: the segments past the cut are refused, naming the file.
        let cut = Clips.path("cut.mkv")
        try bytes.write(to: URL(fileURLWithPath: cut))
        let geometry = try RemuxGeometry(try InputFile(url: cut), audio: .transcode)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let segmenter = FragmentedMP4Segmenter(input: try InputFile(url: cut), geometry: geometry)
        var failures: [String] = []
        for k in 0..<geometry.index.count {
            do { _ = try segmenter.segment(k) } catch { failures.append("\(error)") }
        }
        #expect(!failures.isEmpty && failures.count < geometry.index.count, "\(failures)")
        #expect(failures.allSatisfy { $0.contains("cut.mkv") && !$0.contains("\n") }, "\(failures)")
        // A file cut short before it is looked at: segments up to where it ends.
        let truncated = Clips.path("truncated.mkv")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let short = try Self.remux(truncated)
        #expect((2...3).contains(short.geometry.index.count), "\(short.geometry.index.starts)")
        // Garbage in the middle: every segment is made or refused with a reason.
        var garbled = bytes
        for i in stride(from: bytes.count / 3, to: bytes.count / 3 + 20_000, by: 7) { garbled[i] ^= 0x5a }
        let damaged = Clips.path("garbled.mkv")
        try garbled.write(to: URL(fileURLWithPath: damaged))
        let made = try Self.remux(damaged)
        #expect(made.segments.count == made.geometry.index.count)
        // Not media at all.
        let text = Clips.path("notes.mkv")
        try Data("not a film".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: OpenError.self) { _ = try InputFile(url: text) }
    }

    @Test func aLongMatroskaFilesSegmentsComeFromItsCuesAsTheyWouldFromAScan() async throws {
        let path = try await Clips.made("long-1.mkv", ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=70", "-c:v", "libx264",
                                                       "-preset", "ultrafast", "-g", "50", "-bf", "2", "-f", "matroska"])
        let input = try InputFile(url: path)
        let layout = MediaLayout(input)
        let video = try #require(layout.video)
        let indexed = try #require(KeyframeScan.indexedKeyframes(input, stream: video))
        let scanned = try KeyframeScan.scannedKeyframes(try InputFile(url: path), stream: video)
        #expect(indexed.count == 35 && indexed == scanned)
        #expect(try KeyframeScan.segments(of: input, layout: layout).starts.count == 35)
    }

    @Test(arguments: [("ts", ["-c:v", "libx264", "-c:a", "ac3"]), ("avi", ["-c:v", "libx264", "-bf", "0", "-c:a", "libmp3lame"]),
                      ("webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"])])
    func otherContainersRemuxToTheSamePictures(_ container: String, _ codecs: [String]) async throws {
        let path = try await Clips.made("clip-1.\(container)", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=5", "-f", "lavfi",
                                                                 "-i", "sine=f=440:r=48000:d=5", "-g", "25", "-pix_fmt", "yuv420p"] + codecs)
        let copy = container == "webm"
        let input = try InputFile(url: path)
        let geometry = try RemuxGeometry(input, audio: copy ? .copy : .transcode)
        let segmenter = FragmentedMP4Segmenter(input: input, geometry: geometry)
        var bytes = try segmenter.initSegment()
        for k in 0..<geometry.index.count { bytes += try segmenter.segment(k) }
        let output = Clips.path("clip-\(container).mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        #expect(try await Clips.pictures(output) == Clips.pictures(path), "\(container)")
        let codecs = try InputFile(url: output).info().streams.map(\.codec)
        #expect(codecs == [copy ? "vp9" : "h264", copy ? "opus" : "aac"], "\(container)")
        #expect(geometry.mimeType.contains(copy ? "vp09.00." : "avc1."), "\(geometry.mimeType)")
        // The first picture on the page's timeline is where players put it (an MPEG-TS starts at 1.4 s).
        // (AVI keeps decode times only: a picture's time is its decode time there.)
        let first = try #require(try await Self.packets(output, "v", "pts_time").compactMap { Double($0[0]) }.min())
        let sourceFirst = try #require(try await Self.packets(path, "v", "pts_time,dts_time").compactMap { Double($0[0]) ?? Double($0[1]) }.min())
        #expect(abs(first + geometry.timestampOffset - (sourceFirst - geometry.layout.containerStart)) < 0.001, "\(container)")
    }

    @Test func anAVIWithBFramesIsRefusedWithAReason() async throws {
        let path = try await Clips.made("bframes-1.avi", ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx264", "-f", "avi"])
        #expect { _ = try RemuxGeometry(try InputFile(url: path), audio: .none) } throws: { error in
            "\(error)".contains("bframes-1.avi stores no presentation times")
        }
    }
}
