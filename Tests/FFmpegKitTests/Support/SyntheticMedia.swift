import CFFmpeg
import Foundation
@testable import FFmpegKit

/// Frames made in memory with known content, and the measures the tests take of what comes out.
enum SyntheticMedia {
    /// Planar float audio (`fltp`), `count` samples per channel, sample `i` of channel `c` = `value(c, i)`.
    /// `unknownLayout`: the channels have no layout, only a count (as PCM in Matroska often has).
    static func audio(rate: Int, channels: Int, count: Int, unknownLayout: Bool = false,
                      _ value: (_ channel: Int, _ index: Int) -> Float) -> Frame {
        let frame = Frame()
        let f = frame.pointer
        f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        f.pointee.sample_rate = Int32(rate)
        f.pointee.nb_samples = Int32(count)
        if unknownLayout {
            f.pointee.ch_layout.order = AV_CHANNEL_ORDER_UNSPEC
            f.pointee.ch_layout.nb_channels = Int32(channels)
        } else {
            av_channel_layout_default(&f.pointee.ch_layout, Int32(channels))
        }
        precondition(av_frame_get_buffer(f, 0) >= 0, "av_frame_get_buffer")
        for c in 0..<channels {
            let plane = UnsafeMutableRawPointer(f.pointee.extended_data[c]!).assumingMemoryBound(to: Float.self)
            for i in 0..<count { plane[i] = value(c, i) }
        }
        return frame
    }

    /// A sine of `frequency` Hz and `amplitude` at `rate`, sample `index` (continuous across frames).
    static func sine(_ frequency: Double, amplitude: Double, rate: Int, index: Int) -> Float {
        Float(amplitude * sin(2 * .pi * frequency * Double(index) / Double(rate)))
    }

    /// An RGBA picture whose pixel (x, y) is `pixel(x, y)`.
    static func rgba(width: Int, height: Int, _ pixel: (_ x: Int, _ y: Int) -> [UInt8]) -> Frame {
        let frame = Frame()
        let f = frame.pointer
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_RGBA.rawValue
        precondition(av_frame_get_buffer(f, 0) >= 0, "av_frame_get_buffer")
        let stride = Int(f.pointee.linesize.0)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                for k in 0..<4 { f.pointee.data.0![y * stride + x * 4 + k] = p[k] }
            }
        }
        return frame
    }

    /// Amplitude of the `frequency` Hz component of `samples` (Goertzel). Exact for a sine that
    /// completes whole periods within the block.
    static func amplitude(of frequency: Double, in samples: ArraySlice<Float>, rate: Int) -> Double {
        let w = 2 * Double.pi * frequency / Double(rate)
        let coefficient = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        for x in samples {
            let s0 = Double(x) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * power.squareRoot() / Double(samples.count)
    }

    /// Channel `channel` of interleaved float samples with `channels` channels.
    static func channel(_ channel: Int, of interleaved: [Float], channels: Int) -> [Float] {
        stride(from: channel, to: interleaved.count, by: channels).map { interleaved[$0] }
    }

    static func floats(_ bytes: [UInt8]) -> [Float] {
        bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
