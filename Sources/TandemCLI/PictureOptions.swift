import ArgumentParser
import TandemWindow

/// mpv's `--video-sync`, for every command with a window (`play`, `host`, `join`, `stories`).
struct PictureOptions: ParsableArguments {
    @Option(name: .customLong("video-sync"), help: ArgumentHelp(
        "What places the pictures, as mpv's: audio (by the clock, what is heard; the default) or display-vdrop (on the "
            + "display's refreshes when vsync paces the window: each picture on the refresh nearest its instant).",
        valueName: "mode"))
    var videoSync: VideoSync = .audio
}

extension VideoSync: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
