import FFmpegKit
import Foundation
import PlayerCore
import SoundOutput
import TandemWindow

/// The window and sound output of `tandem play` without `--headless`: one SDL window for the
/// whole playlist (sized for its first file, capped to the screen), per file a video sink and the
/// first of `--ao`'s outputs that opens (or muted playback when there is none), and mpv's keys through
/// ``PlayerWindowController``.
package struct WindowedPlayback: Sendable {
    /// Window size for a file without pictures (the clock and progress bar still show).
    package static let audioOnlySize = DisplayGeometry.Size(width: 640, height: 360)

    /// How one file's turn in the window ended.
    package enum Outcome: Sendable, Equatable {
        /// q, closing the window, SIGINT; `remembering` for Shift+Q.
        case quit(remembering: Bool)
        /// The file played to its end.
        case ended
        /// `<` (−1) or `>` (+1).
        case step(Int)
    }

    /// One file's sinks.
    package struct Sinks: Sendable {
        package let video: WindowVideoSink
        package let audio: (any SoundDevice)?
    }

    package let window: PlayerWindow
    /// The outputs to open for each file (nil: none, as with `--ao=null` or `--wav`).
    package let sound: SoundOptions?

    /// Opens the window (sized after `file`, titled `title` or after the file); `sound` opens a sound
    /// output for each file.
    package static func open(_ file: String?, title: String? = nil, sound: SoundOptions?,
                             videoSync: VideoSync = .audio) async throws(WindowError) -> WindowedPlayback {
        let geometry = file.flatMap { DisplayGeometry(probing: $0) }
        let title = title ?? file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "Tandem"
        let window = try await PlayerWindow(title: title, size: geometry?.displaySize ?? audioOnlySize, videoSync: videoSync)
        await window.setAutoHidesControls(true)
        return WindowedPlayback(window: window, sound: sound)
    }

    /// The sinks for `file`: its rotation, and the sound device opened at its rate with `levels`
    /// (the volume is kept from file to file, as in mpv, and from run to run).
    package func sinks(for file: String, levels: SavedVolume) -> Sinks {
        let geometry = DisplayGeometry(probing: file)
        var audio: (any SoundDevice)?
        if let sound, sound.outputs.plays {
            let stream = (try? InputFile(url: file))?.info().streams.first { $0.type == .audio }
            audio = SoundDevices.open(sound, preferredRate: stream?.sampleRate ?? 48000, preferredChannels: stream?.channels ?? 2,
                                      volume: levels.volume, muted: levels.muted, warn: { printError($0) })
        }
        return Sinks(video: WindowVideoSink(rotation: geometry.map { g in Double(g.quarterTurns * 90) } ?? 0), audio: audio)
    }

    /// The controller for one file; with `playlist`, `<`/`>` end its turn with a step.
    @WindowActor
    package func controller(_ player: Player, sinks: Sinks, playlist: Bool, screenshotDirectory: String?) -> PlayerWindowController {
        let controller = PlayerWindowController(player: player, video: sinks.video, audio: sinks.audio)
        controller.hasPlaylist = playlist
        controller.screenshotDirectory = screenshotDirectory
        controller.audioDelayMemory = sound?.memory
        return controller
    }

    /// Runs the window until the file ends, the viewer quits, or `<`/`>` is pressed (run it again
    /// with the same controller to go on with the file).
    @WindowActor
    package func run(_ controller: PlayerWindowController) async -> Outcome {
        controller.clearPlaylistStep()
        await window.run(controller: controller)
        if controller.quit || Task.isCancelled { return .quit(remembering: controller.remembersPosition) }
        return controller.playlistStep.map { .step($0) } ?? .ended
    }

    package func close() async { await window.close() }
}

/// Presents each picture to several sinks (e.g. framemd5 and a snapshot).
package final class FanOutVideoSink: VideoSink {
    private let sinks: [any VideoSink]
    package init(_ sinks: [any VideoSink]) { self.sinks = sinks }
    package func present(_ frame: VideoFrame, hostTime: Double) { sinks.forEach { $0.present(frame, hostTime: hostTime) } }
    package func finish() { sinks.forEach { $0.finish() } }
    /// The slowest sink's: the picture is on every screen by its instant.
    package var presentationDelay: Double { sinks.reduce(0) { max($0, $1.presentationDelay) } }
    /// A single screen's refreshes: with several, no one grid holds for all.
    package var refreshGrid: RefreshGrid? {
        let grids = sinks.compactMap(\.refreshGrid)
        return grids.count == 1 ? grids[0] : nil
    }
}
