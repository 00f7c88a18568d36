import CFFmpeg
import FFmpegKit

/// One text subtitle track of a file as WebVTT: every packet of the stream read (the other
/// streams skipped where the demuxer can), decoded by libavcodec (``SubtitleDecoder``) to ASS
/// events, written by ``WebVTT``. Reads the file from its start on a file of its own.
enum SubtitleTrackReader {
    /// The WebVTT document of subtitle stream `stream` of the file at `url`, on the item's timeline
    /// (seconds from the container's start, `containerStart`).
    static func webVTT(url: String, stream: Int, containerStart: Double) throws -> String {
        let input = try InputFile(url: url)
        for i in 0..<input.streamCount where i != stream { input.stream(i).pointee.discard = AVDISCARD_ALL }
        let decoder = try SubtitleDecoder(input: input, streamIndex: stream)
        var cues: [WebVTT.Cue] = []
        let packet = Packet()
        while try input.read(into: packet) == .ok {
            guard packet.streamIndex == stream else { continue }
            let decoded: SubtitleEvent?
            do {
                decoded = try decoder.decode(packet)
            } catch {
                guard error.code == FFmpegError.invalidData else { throw error }
                continue  // a damaged event is left out, as players do
            }
            guard let event = decoded, case .ass(let lines) = event.content else { continue }
            for line in lines {
                cues.append(WebVTT.Cue(start: event.start - containerStart, end: event.end.map { $0 - containerStart }, ass: line))
            }
        }
        return WebVTT.document(cues)
    }
}
