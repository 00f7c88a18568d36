import CFFmpeg
import FFmpegKit

extension DisplayGeometry {
    /// The geometry of a file's video stream as its container and codec parameters describe it
    /// (size, sample aspect ratio, display-matrix rotation), to size a window before decoding.
    /// Nil when the file cannot be opened or has no video stream.
    /// - Parameter streamIndex: a container stream index; nil: FFmpeg's best video stream.
    public init?(probing url: String, streamIndex: Int? = nil) {
        guard let input = try? InputFile(url: url), let index = streamIndex ?? input.bestStream(.video),
              index >= 0, index < input.streamCount else { return nil }
        let stream = input.stream(index)
        guard let parameters = stream.pointee.codecpar, parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
              parameters.pointee.width > 0, parameters.pointee.height > 0 else { return nil }
        let sar = av_guess_sample_aspect_ratio(input.pointer, stream, nil)
        self.init(frameSize: Size(width: Int(parameters.pointee.width), height: Int(parameters.pointee.height)),
                  sampleAspect: Rational(sar.num, sar.den), rotation: input.info().streams[index].rotation ?? 0)
    }
}
