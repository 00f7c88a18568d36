import CFFmpeg
import FFmpegKit

/// Finds an item's segments in its file: the video's keyframes from the demuxer's index where it
/// holds presentation times of every keyframe (Matroska's cues), else from one pass over the
/// video's packets (no decoding: a packet's keyframe flag and timestamp); fixed lengths of sound for
/// a file without video.
enum KeyframeScan {
    /// Files shorter than this are always read through: it is quick, and their index cannot be told
    /// complete (a Matroska file without cues still indexes the keyframes read while opening it).
    static let scanBelowSeconds = 60.0
    /// An index is complete when its last keyframe is this close to the end: 10 s is the longest
    /// keyframe interval common encoders make (x264's default).
    static let indexTailSeconds = 10.0

    /// The item's segments. Throws what reading the file throws.
    static func segments(of input: InputFile, layout: MediaLayout) throws -> SegmentIndex {
        guard let cutting = layout.cutting else { return SegmentIndex(starts: [], timeBase: Rational(1, 1), atKeyframes: false) }
        let stream = input.stream(cutting)
        let timeBase = input.timeBase(ofStream: cutting)
        guard layout.video != nil else {
            let first = stream.pointee.start_time != noTimestamp ? stream.pointee.start_time
                : SegmentIndex.ticks(layout.containerStart, timeBase)
            let end = SegmentIndex.ticks(layout.containerStart + layout.duration, timeBase)
            return .fixed(from: first, to: end, timeBase: timeBase)
        }
        if layout.duration >= scanBelowSeconds, let indexed = indexedKeyframes(input, stream: cutting), let last = indexed.max(),
           Double(last) * timeBase.value >= layout.containerStart + layout.duration - indexTailSeconds {
            return .cutting(keyframes: indexed, timeBase: timeBase)
        }
        // A file of its own for the pass: it reads from the start, whatever the index lookup did.
        return .cutting(keyframes: try scannedKeyframes(try InputFile(url: input.url), stream: cutting), timeBase: timeBase)
    }

    /// Keyframe times from the demuxer's index, for containers whose index holds presentation times
    /// (Matroska's cues; MP4's index holds decode times, and MPEG-TS has none).
    static func indexedKeyframes(_ input: InputFile, stream index: Int) -> [Int64]? {
        let context = input.pointer
        guard String(cString: context.pointee.iformat.pointee.name).contains("matroska") else { return nil }
        // Matroska reads its cues at the first seek (which may fail: then there are none).
        _ = avformat_seek_file(context, Int32(index), Int64.min, 0, 0, 0)
        let stream = input.stream(index)
        var keyframes: [Int64] = []
        for i in 0..<avformat_index_get_entries_count(stream) {
            guard let entry = avformat_index_get_entry(stream, i) else { continue }
            if Int32(entry.pointee.flags) & AVINDEX_KEYFRAME != 0 { keyframes.append(entry.pointee.timestamp) }
        }
        return keyframes
    }

    /// Keyframe times from reading every packet of the video stream once, from where `input` is (a
    /// file just opened reads from its start); the other streams are skipped where the demuxer can,
    /// and dropped otherwise.
    static func scannedKeyframes(_ input: InputFile, stream index: Int) throws(FFmpegError) -> [Int64] {
        var discards: [AVDiscard] = []
        for i in 0..<input.streamCount {
            let stream = input.stream(i)
            discards.append(stream.pointee.discard)
            if i != index { stream.pointee.discard = AVDISCARD_ALL }
        }
        defer { for i in 0..<input.streamCount { input.stream(i).pointee.discard = discards[i] } }
        var keyframes: [Int64] = []
        let packet = Packet()
        while try input.read(into: packet) == .ok {
            guard packet.streamIndex == index, packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 else { continue }
            let time = SegmentReader.presentationTime(packet)
            if time != noTimestamp { keyframes.append(time) }
        }
        return keyframes
    }
}
