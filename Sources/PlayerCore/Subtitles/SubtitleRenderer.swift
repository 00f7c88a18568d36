import FFmpegKit

/// Draws subtitle cues onto pictures. SubtitleKit's libass renderer is the one in use; PlayerCore
/// only decides which cues show on which picture, so it links no renderer itself.
///
/// Called on the presentation thread only, one picture at a time.
public protocol SubtitleRenderer: AnyObject, Sendable {
    /// A new picture: `frame` with `cues` drawn as they look at media `time` (seconds, on the cues'
    /// timeline); nil when they draw nothing, so the decoded picture is shown as it is.
    func render(_ cues: [SubtitleCue], track: SubtitleRenderTrack, at time: Double, onto frame: Frame) -> Frame?
}

/// Which track the cues come from: a renderer keeps per-track state (libass's styles from the header).
public struct SubtitleRenderTrack: Sendable, Equatable {
    /// The track's id (``MediaTrack/id``).
    public var id: Int
    /// The ASS header of a text track (script info and styles); nil for bitmap tracks.
    public var header: String?

    public init(id: Int, header: String?) {
        self.id = id
        self.header = header
    }
}
