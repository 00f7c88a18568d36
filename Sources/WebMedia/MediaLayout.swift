import CFFmpeg
import FFmpegKit

/// The streams of a file a browser gets: its video (never cover art), its main sound, and its
/// subtitle tracks — text ones as WebVTT, bitmap ones named as skipped.
struct MediaLayout: Sendable {
    /// One text subtitle track: the file's stream, and what the page labels it with.
    struct SubtitleTrack: Sendable, Equatable {
        var stream: Int
        var codec: String
        var language: String?
        var title: String?
        var isDefault: Bool
    }

    var video: Int?
    var audio: Int?
    var subtitles: [SubtitleTrack] = []
    /// Lines for people about tracks the page will not show (bitmap subtitles).
    var notes: [String] = []
    /// Seconds: the container's start (positions are counted from it) and its duration.
    var containerStart: Double
    var duration: Double

    init(_ input: InputFile) {
        let info = input.info()
        containerStart = info.startSeconds
        duration = info.durationSeconds ?? 0
        let pictures = (0..<input.streamCount).filter { index in
            let stream = input.stream(index).pointee
            return stream.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && stream.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
                && !WebMediaPlan.coverArt.contains(info.streams[index].codec)
        }
        let best = input.bestStream(.video)
        video = best.flatMap { pictures.contains($0) ? $0 : nil } ?? pictures.first
        audio = input.bestStream(.audio, related: video ?? -1)
        for stream in info.streams where stream.type == .subtitle {
            let parameters = input.stream(stream.index).pointee.codecpar.pointee
            let descriptor = avcodec_descriptor_get(parameters.codec_id)
            let props = descriptor.map { Int32($0.pointee.props) } ?? 0
            if props & AV_CODEC_PROP_BITMAP_SUB != 0 {
                notes.append("subtitle track \(stream.index) (\(stream.codec), pictures) is not shown in the browser: only text subtitles are")
            } else if props & AV_CODEC_PROP_TEXT_SUB != 0 {
                subtitles.append(SubtitleTrack(stream: stream.index, codec: stream.codec, language: stream.language,
                                               title: stream.title, isDefault: stream.isDefault ?? false))
            }
        }
    }

    /// The stream that cuts the segments: the video, else the sound.
    var cutting: Int? { video ?? audio }
}
