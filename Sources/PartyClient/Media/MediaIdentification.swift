import Crypto
import FFmpegKit
import Foundation
import PartyKit

/// Works out a ``MediaIdentity``: duration and stream layout from the container (libavformat),
/// and for a local file its size and a SHA-256 over the chunks ``MediaSampling`` picks.
public enum MediaIdentification {
    /// A local file's identity. Throws the open error naming the file.
    public static func identify(file path: String) throws -> MediaIdentity {
        let input = try InputFile(url: path)
        var identity = layout(of: input.info())
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = Int64(try handle.seekToEnd())
        var hash = SHA256()
        for range in MediaSampling.ranges(size: size) {
            try handle.seek(toOffset: UInt64(range.offset))
            let chunk = try handle.read(upToCount: Int(range.length)) ?? Data()
            guard chunk.count == Int(range.length) else {
                throw OpenError(url: path, reason: "changed while being read (short read at byte \(range.offset))")
            }
            hash.update(data: chunk)
        }
        identity.bytes = size
        identity.sampleSHA256 = hash.finalize().map { String(format: "%02x", $0) }.joined()
        return identity
    }

    /// A URL's identity (duration and layout: its bytes are not read here). Throws the open error
    /// naming the URL, also for a server without byte ranges: every member seeks in a party item
    /// (to join mid-play, to follow the host's seeks and to correct its drift), so such a URL
    /// cannot be a party item. An HLS playlist seeks by segment and is accepted.
    public static func identify(url: String, inputOptions: [String: String] = [:]) throws(OpenError) -> MediaIdentity {
        try examine(url: url, inputOptions: inputOptions).identity
    }

    /// ``identify(url:inputOptions:)``, and for a live stream the party's origin: the first stream
    /// time this open saw (its start), which every member's positions then count from.
    /// A live HLS playlist's origin is ``LiveHold``'s: `liveDelay` seconds behind its edge, or three
    /// segments (its default entry); another live stream's is where this open entered it (at its
    /// edge: nothing earlier is there for anyone), without a measured hold.
    /// `audioURLs`: sound streams of the item opened beside `url` (``PlayerOptions/audioFiles``),
    /// whose streams the identity lists after `url`'s.
    public static func examine(url: String, audioURLs: [String] = [], inputOptions: [String: String] = [:],
                               liveDelay: Double? = nil) throws(OpenError) -> (identity: MediaIdentity, live: LiveOrigin?) {
        let input = try MediaInput(url: url, externalURLs: audioURLs, options: inputOptions)
        try input.requireByteRanges()
        let info = input.info()
        guard info.live else { return (layout(of: info), nil) }
        let playlist = info.container.split(separator: ",").contains { InputFile.playlistFormats.contains(String($0)) }
        if !playlist, LiveRule.scheme(of: url).map({ $0 == "http" || $0 == "https" }) == true {
            throw OpenError(url: url, reason: Self.endlessStreamReason)
        }
        guard info.container.split(separator: ",").contains("hls"),
              let window = LiveHold.window(url: url, entry: info.startSeconds, inputOptions: inputOptions) else {
            return (layout(of: info), LiveOrigin(origin: info.startSeconds))
        }
        do throws(LiveHold.TooLong) {
            return (layout(of: info), try LiveHold.origin(in: window, delay: liveDelay, url: url))
        } catch {
            throw OpenError(url: url, reason: error.reason)
        }
    }

    /// Why an endless http(s) stream is no party item: each member's connection starts wherever the
    /// server is when it connects, and nothing before that can be asked for again, so a member who
    /// joins later could never show the party's moment. A live HLS or DASH playlist keeps a window of
    /// its recent past for that.
    public static let endlessStreamReason = "a live stream over plain http(s) cannot be a party item yet "
        + "(a member joining later could not go back to the party's moment): use its HLS or DASH playlist"

    /// Duration and one line per stream.
    static func layout(of info: MediaInfo) -> MediaIdentity {
        MediaIdentity(duration: info.durationSeconds ?? 0, streams: info.streams.map(describe))
    }

    static func describe(_ stream: StreamInfo) -> String {
        switch stream.type {
        case .video:
            return "video \(stream.codec) \(stream.width ?? 0)x\(stream.height ?? 0)"
        case .audio:
            return "audio \(stream.codec) \(stream.sampleRate ?? 0) Hz \(stream.channels ?? 0) ch"
        default:
            return "\(stream.type.rawValue) \(stream.codec)"
        }
    }
}
