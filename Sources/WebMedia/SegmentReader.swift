import CFFmpeg
import FFmpegKit

/// The packets of one segment, read from its file: the video from the segment's keyframe up to
/// the next segment's (in decode order), and the sound presented in the segment's span widened by
/// `soundMargin` (a transcoder needs sound around the span to prime its decoder and encoder, and
/// decides itself which frames are the segment's). No decoding. One thread at a time (it seeks
/// its file).
struct SegmentReader {
    /// How far past a segment's end the reader goes for a stream's last packets before it
    /// decides the stream has ended there: containers interleave streams within a second or two;
    /// 10 s covers the loosest interleaving seen in the wild while bounding a read.
    static let interleaveSeconds = 10.0
    /// A segment is read from at least this long before its start: files interleave their streams
    /// within a second, so every sound packet presented in the segment comes after that point.
    static let seekLeadSeconds = 1.0

    /// What one segment is made of.
    struct Packets {
        var video: [Packet] = []
        var audio: [Packet] = []
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let input: InputFile
    let layout: MediaLayout
    let index: SegmentIndex

    /// A packet's presentation timestamp, else its decode timestamp (AVI gives only those).
    static func presentationTime(_ packet: Packet) -> Int64 {
        packet.pts != noTimestamp ? packet.pts : packet.dts
    }

    /// Reads segment `k`: its video packets in decode order, and the sound packets presented
    /// within its span (from −∞ for the first, to +∞ for the last) widened by `soundMargin` seconds
    /// each side.
    func read(_ k: Int, soundMargin: Double) throws -> Packets {
        guard let cutting = layout.cutting, index.starts.indices.contains(k) else {
            throw Failure(description: "no segment \(k)")
        }
        let start = index.starts[k]
        let lead = SegmentIndex.ticks(max(soundMargin, Self.seekLeadSeconds), index.timeBase)
        // Where reading may begin, tried in turn: a little before the segment (before its sound);
        // the first segment's keyframe (some demuxers cannot seek before it); the file's first byte
        // (a demuxer whose search by time can land past the keyframe, as MPEG-TS's).
        let attempts: [() -> Int32] = [
            { avformat_seek_file(input.pointer, Int32(cutting), Int64.min, start - lead, start - lead, 0) },
            { avformat_seek_file(input.pointer, Int32(cutting), Int64.min, index.starts[0], index.starts[0], 0) },
            { av_seek_frame(input.pointer, -1, 0, AVSEEK_FLAG_BYTE) },
        ]
        for seek in attempts where seek() >= 0 {
            if let packets = try collect(k, soundMargin: soundMargin) { return packets }
        }
        throw Failure(description: "segment \(k): no keyframe at \(seconds(start, index.timeBase)) s in \(input.url) (damaged or changed?)")
    }

    /// Reads segment `k`'s packets from where the file is; nil when its keyframe is not ahead.
    private func collect(_ k: Int, soundMargin: Double) throws -> Packets? {
        let cutBase = index.timeBase
        let start = index.starts[k], next = k + 1 < index.count ? index.starts[k + 1] : nil
        let soundFrom: Double = k == 0 ? -.infinity : seconds(start, cutBase) - soundMargin
        let soundUntil: Double = next.map { seconds($0, cutBase) + soundMargin } ?? .infinity
        let giveUp = soundUntil + Self.interleaveSeconds
        var packets = Packets()
        var videoStarted = false, videoDone = layout.video == nil, soundDone = layout.audio == nil
        let packet = Packet()
        while !(videoDone && soundDone), try input.read(into: packet) == .ok {
            let stream = packet.streamIndex
            let time = Self.presentationTime(packet)
            guard time != noTimestamp else { continue }
            let at = seconds(time, input.timeBase(ofStream: stream))
            if at > giveUp { break }
            if stream == layout.video {
                let isKey = packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0
                if !videoStarted {
                    if isKey, time > start { return nil }  // the read began past the keyframe
                    guard isKey, time == start else { continue }
                    videoStarted = true
                } else if isKey, let next, time >= next {
                    videoDone = true
                }
                if !videoDone { packets.video.append(take(packet)) }
            } else if stream == layout.audio {
                if at >= soundUntil { soundDone = true }
                let wanted = soundMargin > 0 ? at >= soundFrom && at < soundUntil
                    : holds(k, time, input.timeBase(ofStream: stream))
                if wanted { packets.audio.append(take(packet)) }
            }
        }
        return layout.video != nil && !videoStarted ? nil : packets
    }

    /// Whether segment `k`'s span holds `time` (in `base`), compared exactly.
    private func holds(_ k: Int, _ time: Int64, _ base: Rational) -> Bool {
        let cutBase = AVRational(num: index.timeBase.num, den: index.timeBase.den), base = AVRational(num: base.num, den: base.den)
        let afterStart = k == 0 || av_compare_ts(time, base, index.starts[k], cutBase) >= 0
        let beforeEnd = k == index.count - 1 || av_compare_ts(time, base, index.starts[k + 1], cutBase) < 0
        return afterStart && beforeEnd
    }

    /// The packet's contents in a new ``Packet``, leaving `packet` empty for the next read.
    private func take(_ packet: Packet) -> Packet {
        let kept = Packet()
        kept.take(from: packet)
        return kept
    }

    private func seconds(_ ticks: Int64, _ base: Rational) -> Double { Double(ticks) * base.value }
}
