/// What a media item is, enough to tell a same-named different file apart: the byte size, the
/// duration, the stream layout, and a SHA-256 over a few sampled chunks of a local file (URL items
/// carry only duration and layout: their bytes are not at hand).
public struct MediaIdentity: Sendable, Codable, Equatable {
    /// Bytes of the file; nil for URL items.
    public var bytes: Int64?
    /// Seconds, as the container says (0 when unknown, e.g. a live stream).
    public var duration: Double
    /// One line per stream in container order: "video h264 1280x720", "audio aac 48000 Hz 2 ch".
    public var streams: [String]
    /// SHA-256 (hex) over the sampled chunks (see ``MediaSampling``); nil for URL items.
    public var sampleSHA256: String?

    public init(bytes: Int64? = nil, duration: Double, streams: [String], sampleSHA256: String? = nil) {
        self.bytes = bytes
        self.duration = duration
        self.streams = streams
        self.sampleSHA256 = sampleSHA256
    }

    /// Durations closer than this are the same (containers round differently; a re-mux of the
    /// same content is still a different file, which the hash and size catch).
    public static let durationTolerance = 0.05

    /// Why `self` (a local copy) is not the party's `item`, in words for people; nil if it is the
    /// same content. The first difference that a person can check is named.
    public func mismatch(with party: MediaIdentity) -> String? {
        if abs(duration - party.duration) > Self.durationTolerance {
            return "is \(Self.seconds(duration)), the party's is \(Self.seconds(party.duration))"
        }
        if streams != party.streams {
            return "has streams \(streams.joined(separator: ", ")), the party's has \(party.streams.joined(separator: ", "))"
        }
        if let mine = bytes, let theirs = party.bytes, mine != theirs {
            return "is \(mine) bytes, the party's is \(theirs) bytes"
        }
        if let mine = sampleSHA256, let theirs = party.sampleSHA256, mine != theirs {
            return "has other content (sampled SHA-256 \(mine.prefix(12))…, the party's \(theirs.prefix(12))…)"
        }
        return nil
    }

    static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return "\(tenths) s"
    }
}

/// Which bytes of a local file the identity hash covers: the head, the tail and evenly spaced
/// middle chunks. Reading 5 × 64 KiB costs a few milliseconds even on a slow disk, whatever the
/// file's size, and any re-encode or different cut changes the head (container header) or tail.
public enum MediaSampling {
    public static let chunkBytes: Int64 = 64 * 1024
    public static let middleChunks = 3

    /// Byte ranges (offset, length) to hash, in order, for a file of `size` bytes.
    public static func ranges(size: Int64) -> [(offset: Int64, length: Int64)] {
        guard size > 0 else { return [] }
        let total = chunkBytes * Int64(middleChunks + 2)
        if size <= total { return [(0, size)] }
        var out: [(Int64, Int64)] = [(0, chunkBytes)]
        for i in 1...middleChunks {
            out.append((size * Int64(i) / Int64(middleChunks + 1) - chunkBytes / 2, chunkBytes))
        }
        out.append((size - chunkBytes, chunkBytes))
        return out
    }
}
