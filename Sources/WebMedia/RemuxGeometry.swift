import CFFmpeg
import FFmpegKit

/// What every segment of an item shares, found once: its streams, its segments, how the sound is
/// made, the codec strings, and the one shift that puts every timestamp of the fragmented MP4 at or
/// after 0 (`use_editlist=0` writes timestamps as they are, and MP4 has none below 0). The page
/// undoes the shift with `SourceBuffer.timestampOffset` (``timestampOffset``), so the browser's
/// `currentTime` is the position players report: presentation time less the container's start.
struct RemuxGeometry: Sendable {
    let layout: MediaLayout
    let index: SegmentIndex
    let audio: WebMediaPlan.Audio
    /// The AAC frame grid of transcoded sound.
    let grid: AudioGrid?
    /// The video's nominal reorder delay and frame duration, in its time-base ticks.
    let reorderDelay: Int64
    let frameTicks: Int64
    /// Subtracted from every timestamp, in ticks of the cutting stream's time base.
    let shift: Int64
    /// The grid frame transcoded sound starts at (the one holding the first sound packet).
    let firstAudioFrame: Int64
    let videoCodec: String?
    let audioCodec: String?

    /// The frame rate assumed when a video stream states none (only durations of last frames use it).
    static let fallbackFrameRate = 25.0

    /// Seconds to add to the fragmented MP4's timestamps to get the item's positions.
    var timestampOffset: Double { Double(shift) * index.timeBase.value - layout.containerStart }

    /// `video/mp4; codecs="…"` for `MediaSource.isTypeSupported`.
    var mimeType: String { CodecString.mimeType(video: videoCodec, audio: audioCodec) }

    /// Finds the geometry of `input` for sound handled as `audio`: scans its segments and reads the
    /// first one (its timestamps set the shift).
    init(_ input: InputFile, audio wanted: WebMediaPlan.Audio) throws {
        layout = MediaLayout(input)
        guard layout.cutting != nil else { throw SegmentReader.Failure(description: "\(input.url) has no video or sound stream") }
        index = try KeyframeScan.segments(of: input, layout: layout)
        guard index.count > 0 else { throw SegmentReader.Failure(description: "\(input.url): no keyframe found in its video") }
        audio = layout.audio == nil ? .none : wanted
        var frameTicks: Int64 = 1, reorderDelay: Int64 = 0, videoCodec: String?
        if let video = layout.video {
            let stream = input.stream(video).pointee
            let rate = stream.avg_frame_rate.num > 0 && stream.avg_frame_rate.den > 0 ? stream.avg_frame_rate : stream.r_frame_rate
            let fps = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : Self.fallbackFrameRate
            frameTicks = max(1, SegmentIndex.ticks(1 / fps, input.timeBase(ofStream: video)))
            reorderDelay = DecodeTimestamps.nominalDelay(reorderFrames: Int(stream.codecpar.pointee.video_delay), frameTicks: frameTicks)
            videoCodec = Self.codecString(stream.codecpar.pointee)
        }
        self.frameTicks = frameTicks
        self.reorderDelay = reorderDelay
        self.videoCodec = videoCodec
        var grid: AudioGrid?
        if let sound = layout.audio {
            let parameters = input.stream(sound).pointee.codecpar.pointee
            if audio == .transcode {
                grid = AudioGrid(sampleRate: SoundTranscoder.outputRate(forSource: Int(parameters.sample_rate)))
                audioCodec = CodecString.aacLC
            } else {
                audioCodec = parameters.codec_id == AV_CODEC_ID_OPUS ? CodecString.opus : CodecString.mp4a(profile: Int(parameters.profile))
            }
        } else {
            audioCodec = nil
        }
        self.grid = grid
        // The shift: the earliest timestamp of the first segment, as its segment writes it.
        let reader = SegmentReader(input: input, layout: layout, index: index)
        let first = try reader.read(0, soundMargin: grid == nil ? 0 : SoundTranscoder.marginSeconds)
        let cutBase = index.timeBase.av
        var earliest = Int64.max
        if reorderDelay > 0, first.video.contains(where: { $0.pts == noTimestamp }) {
            // AVI keeps decode order only: with B-frames, when each picture is shown is the decoder's to know.
            throw SegmentReader.Failure(description: "\(input.url) stores no presentation times for its reordered pictures "
                                        + "(an AVI with B-frames): it cannot be remuxed without decoding")
        }
        if !first.video.isEmpty {
            let made = DecodeTimestamps.make(pts: first.video.map(SegmentReader.presentationTime), nominalDelay: reorderDelay)
            earliest = made.dts[0]
        }
        var firstAudioFrame: Int64 = 0
        if let sound = layout.audio, let soundStart = first.audio.map({ SegmentReader.presentationTime($0) }).min() {
            let base = input.timeBase(ofStream: sound)
            let start: Int64
            if let grid {
                firstAudioFrame = grid.frame(holding: Double(soundStart) * base.value)
                start = av_rescale_q_rnd(firstAudioFrame * AudioGrid.frameSamples, AVRational(num: 1, den: Int32(grid.sampleRate)),
                                         cutBase, AV_ROUND_DOWN)
            } else {
                start = av_rescale_q_rnd(soundStart, base.av, cutBase, AV_ROUND_DOWN)
            }
            earliest = min(earliest, start)
        }
        self.firstAudioFrame = firstAudioFrame
        shift = earliest == .max ? 0 : earliest
    }

    /// The RFC 6381 string of a video stream the plan remuxes.
    static func codecString(_ parameters: AVCodecParameters) -> String? {
        let depth = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)).map { Int($0.pointee.comp.0.depth) } ?? 8
        switch parameters.codec_id {
        case AV_CODEC_ID_H264:
            let extradata = parameters.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(parameters.extradata_size))) } ?? []
            return CodecString.avc1(extradata: extradata, profile: Int(parameters.profile), level: Int(parameters.level))
        case AV_CODEC_ID_VP9: return CodecString.vp09(profile: Int(parameters.profile), level: Int(parameters.level), bitDepth: depth)
        case AV_CODEC_ID_AV1: return CodecString.av01(profile: Int(parameters.profile), level: Int(parameters.level), bitDepth: depth)
        default: return nil
        }
    }
}

extension Rational {
    var av: AVRational { AVRational(num: num, den: den) }
}
