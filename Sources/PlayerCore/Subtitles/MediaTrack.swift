import FFmpegKit

/// An audio or subtitle track a player can choose, numbered as mpv numbers them (per kind, from 1).
public struct MediaTrack: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A stream of the played file (its container index).
        case stream(Int)
        /// A subtitle file beside it (`--sub-file`, or found next to the video).
        case external(path: String)
    }

    /// mpv's id: 1 for the first track of the kind.
    public var id: Int
    public var source: Source
    public var codec: String
    public var language: String?
    public var title: String?
    public var isDefault: Bool
    public var isForced: Bool
    /// An external file found by its name rather than given (`--sub-file`): mpv ranks these lower.
    public var autoLoaded: Bool

    public init(id: Int, source: Source, codec: String, language: String? = nil, title: String? = nil,
                isDefault: Bool = false, isForced: Bool = false, autoLoaded: Bool = false) {
        self.id = id
        self.source = source
        self.codec = codec
        self.language = language
        self.title = title
        self.isDefault = isDefault
        self.isForced = isForced
        self.autoLoaded = autoLoaded
    }

    public var isExternal: Bool {
        if case .external = source { return true }
        return false
    }

    /// How mpv's OSD names it: `(2) eng 'Commentary'`, or the file name for an external one.
    public var label: String {
        var parts = ["(\(id))"]
        if let language { parts.append(language) }
        if let title { parts.append("'\(title)'") }
        if case .external(let path) = source, title == nil { parts.append("'\(path.split(separator: "/").last.map(String.init) ?? path)'") }
        if parts.count == 1 { parts.append(codec) }
        return parts.joined(separator: " ")
    }

    /// The tracks of `kind` in `info`, numbered from 1 in stream order.
    public static func tracks(of kind: StreamInfo.Kind, in info: MediaInfo) -> [MediaTrack] {
        info.streams.filter { $0.type == kind }.enumerated().map { n, stream in
            MediaTrack(id: n + 1, source: .stream(stream.index), codec: stream.codec, language: stream.language,
                       title: stream.title, isDefault: stream.isDefault ?? false, isForced: stream.isForced ?? false)
        }
    }
}
