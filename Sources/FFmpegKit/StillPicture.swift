import CFFmpeg

/// One picture decoded from a file: the first frame of its video stream, which for a still image
/// (PNG, JPEG, WebP) is the image itself and for a video its first keyframe. Posters are made of these.
public enum StillPicture {
    /// Packets read before giving up on a picture (a video whose first keyframe is this far in
    /// is not worth a poster; the title card covers it).
    static let maxPackets = 600

    /// Decodes the first picture of `url`, scaled to fit within `maxSide` × `maxSide` (aspect kept,
    /// never enlarged), as RGBA. `options`: libavformat's open options, as ``InputFile`` takes them
    /// (e.g. `headers` for http). Blocks on I/O and decoding: call it off the cooperative pool.
    public static func decode(_ url: String, maxSide: Int, options: [String: String] = [:]) throws(OpenError) -> RGBAImage {
        let input = try InputFile(url: url, options: options)
        guard let index = input.bestStream(.video) else { throw OpenError(url: url, reason: "no picture (no video stream)") }
        let decoder = try Decoder(input: input, streamIndex: index, threads: 1)
        let packet = Packet()
        let frame = Frame()
        var draining = false
        do throws(FFmpegError) {
            for _ in 0..<maxPackets {
                if try decoder.receive(into: frame) == .ok { return try rgba(frame, maxSide: maxSide) }
                if draining { break }
                switch try input.read(into: packet) {
                case .ok:
                    guard packet.streamIndex == index else { continue }
                    _ = try decoder.send(packet)
                case .endOfStream, .again:
                    draining = true
                    _ = try decoder.send(nil)
                }
            }
            if try decoder.receive(into: frame) == .ok { return try rgba(frame, maxSide: maxSide) }
        } catch {
            throw OpenError(url: url, reason: "no picture (\(error.description))")
        }
        throw OpenError(url: url, reason: "no picture decoded in the first \(maxPackets) packets")
    }

    /// The size that fits `width` × `height` within `maxSide` on both sides, keeping the aspect.
    public static func fittedSize(width: Int, height: Int, maxSide: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (0, 0) }
        let scale = min(1, Double(maxSide) / Double(max(width, height)))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    static func rgba(_ frame: Frame, maxSide: Int) throws(FFmpegError) -> RGBAImage {
        let size = fittedSize(width: frame.width, height: frame.height, maxSide: maxSide)
        let scaled = try ImageScaler(pixelFormat: AV_PIX_FMT_RGBA).convert(frame, width: size.width, height: size.height)
        var pixels: [UInt8] = []
        _ = try scaled.copyPackedImage(into: &pixels)
        pixels.removeLast(max(0, pixels.count - size.width * size.height * 4))
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }
}
