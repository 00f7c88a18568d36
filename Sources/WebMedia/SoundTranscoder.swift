import CFFmpeg
import FFmpegKit

/// Transcodes the sound of one segment to AAC: decodes its packets (libavcodec), lays the samples on
/// the item's sample timeline as stereo float at the grid's rate (libswresample, ``PlanarResampler``), and encodes the
/// ``AudioGrid`` frames the segment owns — starting the encoder a few frames early and running it a
/// few frames past the end, so the frames kept are those a continuous encode would give near enough
/// that neighbouring segments play on without a seam. Fresh decoder and encoder for every segment:
/// a segment is the same whichever were made before it. One thread at a time.
struct SoundTranscoder {
    /// Frames encoded before the segment's first and dropped: the encoder's first packet is its
    /// priming, and each frame's transform overlaps the one before.
    static let leadFrames: Int64 = 2
    /// Frames encoded after the segment's last: the encoder gives a frame's packet one frame late.
    static let tailFrames: Int64 = 2
    /// Sound read around a segment's span: the lead and tail frames (2 × 21 ms at 48 kHz) plus a
    /// decoder's warm-up (an AC-3 or DTS frame, ≤ 32 ms); 0.25 s covers every common codec.
    static let marginSeconds = 0.25
    /// Rates the AAC output keeps from the source; any other is resampled to 48 kHz (AAC and every
    /// browser play both, and 48 kHz is what video files mostly carry).
    static let keptRates: Set<Int> = [44_100, 48_000]
    static let defaultRate = 48_000

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let input: InputFile
    let stream: Int
    let grid: AudioGrid

    /// The grid's rate for a source at `sourceRate` Hz.
    static func outputRate(forSource sourceRate: Int) -> Int { keptRates.contains(sourceRate) ? sourceRate : defaultRate }

    /// AAC packets of frames [`first`, `end`) of the grid (`end` nil: through the sound's last
    /// sample), timestamped in samples, from `packets` (the segment's sound, read with
    /// ``marginSeconds`` around it).
    func transcode(_ packets: [Packet], first: Int64, end: Int64?) throws -> [Packet] {
        let window = try decode(packets)
        guard let soundEnd = window.end else { return [] }
        let last = end ?? grid.frame(holdingSample: soundEnd - 1) + 1
        guard first < last else { return [] }
        let encoder = try AudioEncoder(sampleRate: grid.sampleRate)
        var encoded: [Packet] = []
        let size = Int(AudioGrid.frameSamples)
        for j in (first - Self.leadFrames)..<(last + Self.tailFrames) {
            let position = j * AudioGrid.frameSamples
            encoded += try encoder.encode(window.samples(from: position, count: size), pts: position)
        }
        encoded += try encoder.encode(nil, pts: 0)
        let from = first * AudioGrid.frameSamples, until = last * AudioGrid.frameSamples
        return encoded.filter { packet in
            guard packet.pts >= from, packet.pts < until else { return false }
            packet.pointer.pointee.dts = packet.pts
            packet.pointer.pointee.duration = AudioGrid.frameSamples
            return true
        }
    }

    /// Decodes `packets` onto a ``SampleWindow``.
    private func decode(_ packets: [Packet]) throws -> SampleWindow {
        var window = SampleWindow(channels: AudioEncoder.channels, sampleRate: grid.sampleRate)
        guard !packets.isEmpty else { return window }
        let decoder: Decoder
        do { decoder = try Decoder(input: input, streamIndex: stream, threads: 1) } catch { throw Failure(description: error.description) }
        let resampler = PlanarResampler(sampleRate: grid.sampleRate, channels: AudioEncoder.channels)
        let timeBase = input.timeBase(ofStream: stream).value
        let frame = Frame()
        func drain() throws(FFmpegError) {
            while try decoder.receive(into: frame) == .ok {
                let ts = frame.bestEffortTimestamp
                let position = ts != noTimestamp ? Int64((Double(ts) * timeBase * Double(grid.sampleRate)).rounded()) : nil
                window.append(try resampler.convert(frame), at: position)
                frame.unref()
            }
        }
        for packet in packets {
            // A packet the decoder refuses (damaged) is skipped, as players do: silence there.
            guard (try? decoder.sendAll(packet, receiving: drain)) != nil else { continue }
        }
        try? decoder.sendAll(nil, receiving: drain)
        return window
    }
}

extension Decoder {
    /// Sends `packet` (nil: drains), calling `receive` to take frames whenever the decoder is full.
    func sendAll(_ packet: Packet?, receiving receive: () throws(FFmpegError) -> Void) throws(FFmpegError) {
        while try send(packet) == .again { try receive() }
        try receive()
    }
}
