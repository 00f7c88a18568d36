/// Which track of a kind to play, as mpv's `--aid`/`--sid` take it.
public enum TrackChoice: Sendable, Equatable {
    /// The best track by mpv's rules (``TrackSelection``).
    case auto
    /// None (`no`).
    case none
    /// Track `id` of its kind, counting from 1 in file order (mpv's numbering); external subtitle
    /// files come after the file's own tracks.
    case id(Int)

    /// Parses `auto`, `no` or a track number; nil for anything else.
    public init?(trackArgument argument: String) {
        switch argument.lowercased() {
        case "auto": self = .auto
        case "no", "none": self = .none
        default:
            guard let id = Int(argument), id >= 1 else { return nil }
            self = .id(id)
        }
    }
}
