/// How a browser plays an item, decided from what the page also sees — its title and its streams'
/// lines (`MediaIdentity.streams`: "video h264 640x360", "audio ac3 48000 Hz 6 ch") — by the same
/// rules as the page's `media.js` (`Tests/PartyWebTests/js/playability.json` holds both to one table).
///
/// Pure: no FFmpeg. Browsers decode H.264, VP9 and AV1 pictures in fragmented MP4 (Media Source
/// Extensions) and AAC or Opus sound there; anything else in the sound is transcoded to AAC, and
/// pictures in any other codec are never re-encoded (a 1080p encode costs a core per guest).
public struct WebMediaPlan: Sendable, Equatable {
    /// What the page does with the item.
    public enum Kind: String, Sendable, Equatable {
        /// The file plays in a browser as it is (an MP4 or WebM of browser codecs).
        case direct
        /// The codecs play but not the container, or not the sound: remuxed to fragmented MP4.
        case remux
        /// Nothing a browser decodes can be made of it (``WebMediaPlan/reason`` says why).
        case unplayable
    }

    /// What happens to the sound when the item is remuxed.
    public enum Audio: String, Sendable, Equatable {
        /// No sound track.
        case none
        /// AAC or Opus: copied as it is.
        case copy
        /// Anything else (AC-3, E-AC-3, DTS, FLAC, MP3, Vorbis, PCM…): decoded and encoded to AAC.
        case transcode
    }

    public let kind: Kind
    /// The sound of the remuxed segments; nil when no segments are made (an unplayable item, or a
    /// direct one in a codec MP4 does not carry, as VP8). A direct item's segments are still made on
    /// request, for a browser that cannot open the file after all.
    public let remux: Audio?
    /// Why the item is unplayable, for people.
    public let reason: String?

    /// Video codecs a browser decodes in fragmented MP4, by FFmpeg's name.
    public static let remuxableVideo: Set<String> = ["h264", "vp9", "av1"]
    /// Sound codecs copied into the fragmented MP4 as they are.
    public static let copiedAudio: Set<String> = ["aac", "opus"]
    /// Picture codecs of cover art ("attached pictures" in MP3, FLAC, M4A): not the item's video.
    public static let coverArt: Set<String> = ["mjpeg", "png", "bmp", "gif", "webp", "tiff"]

    /// Containers browsers open themselves, by file extension, with the codecs they decode in each.
    static let directContainers: [String: (video: Set<String>, audio: Set<String>)] = [
        "mp4": (["h264", "vp9", "av1"], ["aac", "mp3", "opus", "flac"]),
        "m4v": (["h264", "vp9", "av1"], ["aac", "mp3", "opus", "flac"]),
        "m4a": ([], ["aac", "mp3", "opus", "flac"]),
        "webm": (["vp8", "vp9", "av1"], ["opus", "vorbis"]),
        "ogg": (["theora", "vp8"], ["vorbis", "opus", "flac"]),
        "ogv": (["theora", "vp8"], ["vorbis", "opus", "flac"]),
        "opus": ([], ["opus"]),
        "mp3": ([], ["mp3"]),
        "flac": ([], ["flac"]),
        "wav": ([], ["pcm_s16le", "pcm_s24le", "pcm_u8", "pcm_f32le"]),
    ]

    /// The plan for an item called `title` with `streams` (its identity's stream lines).
    public static func decide(title: String, streams: [String]) -> WebMediaPlan {
        let parsed = streams.map { line -> (kind: Substring, codec: String) in
            let words = line.split(separator: " ")
            return (words.first ?? "", String(words.dropFirst().first ?? ""))
        }
        let video = parsed.first { $0.kind == "video" && !coverArt.contains($0.codec) }?.codec
        let audio = parsed.first { $0.kind == "audio" }?.codec
        guard video != nil || audio != nil else {
            return WebMediaPlan(kind: .unplayable, remux: nil, reason: "the item has no video or sound a browser can play")
        }
        let remuxable = video.map(remuxableVideo.contains) ?? true
        let sound: Audio? = remuxable ? audio.map { copiedAudio.contains($0) ? .copy : .transcode } ?? Audio.none : nil
        let parts = title.split(separator: ".")
        if parts.count > 1, let direct = directContainers[parts[parts.count - 1].lowercased()],
           video.map(direct.video.contains) ?? true, audio.map(direct.audio.contains) ?? true {
            return WebMediaPlan(kind: .direct, remux: sound, reason: nil)
        }
        guard let sound else {
            let codec = video?.uppercased() ?? ""
            return WebMediaPlan(kind: .unplayable, remux: nil,
                                reason: "browsers here do not decode \(codec) video (H.264, VP9 and AV1 are remuxed; pictures are never re-encoded)")
        }
        return WebMediaPlan(kind: .remux, remux: sound, reason: nil)
    }
}
