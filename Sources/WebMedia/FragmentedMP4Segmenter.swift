import CFFmpeg
import FFmpegKit

/// Makes an item's fragmented MP4 for Media Source Extensions: the init segment, and segment k as
/// one fragment (moof + mdat) — its video packets copied bit for bit (libavformat, no re-encode),
/// its sound copied or transcoded to AAC (``SoundTranscoder``). Every call starts a new muxer, so a
/// segment's bytes are the same whatever was made before; timestamps are the file's, less the
/// item's one shift (``RemuxGeometry``), so segments made apart line up on one timeline.
/// One thread at a time (it reads `input`).
struct FragmentedMP4Segmenter {
    let input: InputFile
    let geometry: RemuxGeometry

    /// The init segment (ftyp + moov): the same bytes before every segment.
    func initSegment() throws -> [UInt8] {
        let (muxer, header) = try begin()
        muxer.finish()
        return header
    }

    /// Media segment `k` (moof + mdat).
    func segment(_ k: Int) throws -> [UInt8] {
        guard geometry.index.starts.indices.contains(k) else { throw SegmentReader.Failure(description: "no segment \(k)") }
        let reader = SegmentReader(input: input, layout: geometry.layout, index: geometry.index)
        let packets = try reader.read(k, soundMargin: geometry.grid == nil ? 0 : SoundTranscoder.marginSeconds)
        let (muxer, header) = try begin()
        let cutBase = geometry.index.timeBase.av
        var out = 0
        if let video = geometry.layout.video {
            let base = input.timeBase(ofStream: video).av
            let shift = av_rescale_q_rnd(geometry.shift, cutBase, base, AV_ROUND_DOWN)
            let made = DecodeTimestamps.make(pts: packets.video.map(SegmentReader.presentationTime), nominalDelay: geometry.reorderDelay)
            for (i, packet) in packets.video.enumerated() {
                let p = packet.pointer
                p.pointee.pts = SegmentReader.presentationTime(packet) - shift
                p.pointee.dts = made.dts[i] - shift
                if p.pointee.duration <= 0 { p.pointee.duration = geometry.frameTicks }
                try write(packet, from: base, to: out, muxer)
            }
            out += 1
        }
        if let sound = geometry.layout.audio {
            let audio: [Packet], base: AVRational
            if let grid = geometry.grid {
                base = AVRational(num: 1, den: Int32(grid.sampleRate))
                let first = k == 0 ? geometry.firstAudioFrame : grid.firstFrame(atOrAfter: geometry.index.starts[k], timeBase: geometry.index.timeBase)
                let end = k + 1 < geometry.index.count
                    ? grid.firstFrame(atOrAfter: geometry.index.starts[k + 1], timeBase: geometry.index.timeBase) : nil
                audio = try SoundTranscoder(input: input, stream: sound, grid: grid).transcode(packets.audio, first: first, end: end)
            } else {
                base = input.timeBase(ofStream: sound).av
                audio = packets.audio
            }
            let shift = av_rescale_q_rnd(geometry.shift, cutBase, base, AV_ROUND_DOWN)
            for packet in audio {
                let p = packet.pointer
                let pts = SegmentReader.presentationTime(packet)
                p.pointee.pts = pts - shift
                p.pointee.dts = (p.pointee.dts != noTimestamp ? p.pointee.dts : pts) - shift
                try write(packet, from: base, to: out, muxer)
            }
        }
        let bytes = try muxer.flushFragment(headerBytes: header.count)
        muxer.finish()
        return bytes
    }

    /// A new muxer with the item's streams, its header written.
    private func begin() throws -> (MemoryMuxer, [UInt8]) {
        let muxer = try MemoryMuxer()
        if let video = geometry.layout.video {
            let stream = input.stream(video)
            _ = try muxer.addStream(copying: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        }
        if let sound = geometry.layout.audio {
            if let grid = geometry.grid {
                let parameters = try AudioEncoder(sampleRate: grid.sampleRate).parameters()
                defer {
                    var p: UnsafeMutablePointer<AVCodecParameters>? = parameters
                    avcodec_parameters_free(&p)
                }
                _ = try muxer.addStream(copying: parameters, timeBase: AVRational(num: 1, den: Int32(grid.sampleRate)))
            } else {
                let stream = input.stream(sound)
                _ = try muxer.addStream(copying: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
            }
        }
        return (muxer, try muxer.writeHeader())
    }

    private func write(_ packet: Packet, from base: AVRational, to stream: Int, _ muxer: MemoryMuxer) throws {
        packet.pointer.pointee.stream_index = Int32(stream)
        packet.pointer.pointee.pos = -1
        av_packet_rescale_ts(packet.pointer, base, muxer.timeBase(ofStream: stream))
        try muxer.write(packet)
    }
}
