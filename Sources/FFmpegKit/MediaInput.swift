import CFFmpeg

/// One item's inputs read as one: its main input (a file or URL) and the external sound files
/// played with it on one clock (a page's separate video and sound formats, mpv's `--audio-file`).
///
/// Streams are numbered as if they were one container's: the main input's first, then each
/// external file's in turn. Timestamps stay each file's own, on one time line: position 0 is the
/// main input's start, as mpv places an external track (the separate formats of one video start
/// together; HLS renditions share one clock).
///
/// Reading interleaves the files as a muxer would: the next packet comes from the file that is
/// furthest behind, so each stream's packet queue fills at the same media rate. Like
/// ``InputFile``, reading and seeking belong to one thread at a time; ``interrupt()`` may be called
/// from any.
public final class MediaInput: @unchecked Sendable {
    /// The main input, then the external files.
    public let files: [InputFile]
    /// Each file's first stream number (`offsets[0]` is 0).
    private let offsets: [Int]
    /// Per file: the media time (seconds, the file's own timestamps) up to which it has been read,
    /// and whether it has ended. Reset by a seek. Used by the reading thread only.
    private var readTo: [Double]
    private var ended: [Bool]

    /// The main input alone.
    public convenience init(_ file: InputFile) { self.init(main: file, external: []) }

    /// `main` with `external` files played beside it.
    public init(main: InputFile, external: [InputFile]) {
        files = [main] + external
        var offsets: [Int] = []
        var next = 0
        for file in files {
            offsets.append(next)
            next += file.streamCount
        }
        self.offsets = offsets
        readTo = Array(repeating: -.infinity, count: files.count)
        ended = Array(repeating: false, count: files.count)
    }

    /// Opens `url` and each of `externalURLs` with `options` (each failure names its file).
    public convenience init(url: String, externalURLs: [String] = [], options: [String: String] = [:]) throws(OpenError) {
        let main = try InputFile(url: url, options: options)
        var external: [InputFile] = []
        for other in externalURLs { external.append(try InputFile(url: other, options: options)) }
        self.init(main: main, external: external)
    }

    public var main: InputFile { files[0] }
    public var url: String { main.url }
    public var streamCount: Int { offsets.last! + files.last!.streamCount }

    /// The file holding stream `index` of the whole, and the stream's index in that file.
    public func locate(_ index: Int) -> (file: InputFile, index: Int) {
        let part = offsets.lastIndex { $0 <= index }!
        return (files[part], index - offsets[part])
    }

    public func timeBase(ofStream index: Int) -> Rational {
        let (file, local) = locate(index)
        return file.timeBase(ofStream: local)
    }

    /// Position 0, in the stream times of every file: the main input's start.
    public var startSeconds: Double { main.startSeconds }

    /// The best stream of a kind: the first file's that has one, so an external sound file's audio
    /// is chosen over none, and a main input's own sound over an external one only when the
    /// external file has none (the external file's first, for sound: it was given for its sound).
    public func bestStream(_ kind: StreamInfo.Kind) -> Int? {
        let order = kind == .audio ? Array(files.indices.dropFirst()) + [0] : Array(files.indices)
        for part in order {
            if let index = files[part].bestStream(kind) { return offsets[part] + index }
        }
        return nil
    }

    /// Reads the next packet of whichever file is furthest behind into `packet`; its stream index
    /// is the whole's. `.endOfStream` once every file has ended.
    public func read(into packet: Packet) throws(FFmpegError) -> IOStatus {
        guard files.count > 1 else { return try main.read(into: packet) }
        while let part = furthestBehind() {
            let status = try files[part].read(into: packet)
            switch status {
            case .endOfStream:
                ended[part] = true
                continue
            case .again:
                return .again
            case .ok:
                let local = packet.streamIndex
                let timeBase = files[part].timeBase(ofStream: local).value
                let ts = packet.dts != tandem_nopts_value() ? packet.dts : packet.pts
                if ts != tandem_nopts_value() { readTo[part] = max(readTo[part], Double(ts) * timeBase) }
                packet.pointer.pointee.stream_index = Int32(offsets[part] + local)
                return .ok
            }
        }
        return .endOfStream
    }

    /// The file not yet ended that has been read least far, or nil when all have ended.
    private func furthestBehind() -> Int? {
        var best: Int?
        for part in files.indices where !ended[part] && (best == nil || readTo[part] < readTo[best!]) { best = part }
        return best
    }

    /// Seeks every file to `seconds` from position 0 (the main input's start).
    public func seek(toSeconds seconds: Double) throws(FFmpegError) {
        for (part, file) in files.enumerated() {
            try file.seek(toSeconds: seconds + startSeconds - file.startSeconds)
            readTo[part] = -.infinity
            ended[part] = false
        }
    }

    public func interrupt() { files.forEach { $0.interrupt() } }
    public func clearInterrupt() { files.forEach { $0.clearInterrupt() } }

    /// The streams of every file, numbered as one; the main input's container, start and liveness,
    /// and the longest duration.
    public func info() -> MediaInfo {
        var info = main.info()
        guard files.count > 1 else { return info }
        for (part, file) in files.enumerated().dropFirst() {
            let other = file.info()
            info.streams += other.streams.map { stream in
                var stream = stream
                stream.index += offsets[part]
                return stream
            }
            if let duration = other.durationSeconds { info.durationSeconds = max(info.durationSeconds ?? 0, duration) }
            info.live = info.live || other.live
        }
        return info
    }

    /// Any file is live.
    public var isLive: Bool { files.contains { $0.isLive } }
    /// Any file refuses seeks: the whole is read on rather than sought.
    public var refusesSeeks: Bool { files.contains { $0.refusesSeeks } }
    /// Every file can be sought.
    public var isSeekable: Bool { files.allSatisfy { $0.isSeekable } }

    /// ``InputFile/requireByteRanges()`` of every file.
    public func requireByteRanges() throws(OpenError) {
        for file in files { try file.requireByteRanges() }
    }
}

extension Decoder {
    /// Opens the decoder for stream `streamIndex` of the whole `input` (``Decoder/streamIndex`` is
    /// the whole's).
    public convenience init(input: MediaInput, streamIndex: Int, threads: Int = 0) throws(OpenError) {
        let (file, local) = input.locate(streamIndex)
        try self.init(input: file, streamIndex: local, threads: threads, numbered: streamIndex)
    }
}

extension SubtitleDecoder {
    /// Opens the decoder for subtitle stream `streamIndex` of the whole `input`.
    public convenience init(input: MediaInput, streamIndex: Int) throws(OpenError) {
        let (file, local) = input.locate(streamIndex)
        try self.init(input: file, streamIndex: local, numbered: streamIndex)
    }
}
