import ArgumentParser
import FFmpegKit
import Foundation
import PlayerCore
import MPVIPC
import SubtitleKit
import TandemWindow

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a file: in a window with sound, headless (paced by the clock), or as fast as it decodes.",
        discussion: """
            In the window (mpv's keys): space/p pause, ←/→ seek ∓5 s, ↑/↓ seek ±60 s, . frame step, \
            s screenshot (tandem-shot-NNNN.png), f fullscreen, m mute, 9/0 volume, j/J next/previous subtitle \
            track, v subtitles on/off, z/x subtitle delay ∓0.1 s, q/Esc quit. Subtitles (the file's text and \
            bitmap tracks, --sub-file, and same-named .ass/.ssa/.srt/.vtt files next to the video) are drawn \
            in the window and in --snapshot.
            """
    )

    @Argument(help: "The media file, or an http(s)/HLS URL.") var file: String
    @Flag(help: "No window and no sound device; paced in real time by the media clock.") var headless = false
    @Flag(help: "No pacing: decode and present every frame as fast as possible, none dropped (implies --headless).")
    var fast = false
    @Option(help: "Start at this media position (seconds), seeking accurately.") var start: Double?
    @Option(help: "Stop at this media position (seconds).") var end: Double?
    @Option(help: "Playback speed, 0.25–4.0; pitch is preserved.") var speed: Double = 1
    @Option(help: "Write one framemd5 line per presented frame of the first video stream to PATH (- for stdout).")
    var framemd5: String?
    @Option(help: "Write the played audio to a 16-bit WAV file.") var wav: String?
    @Option(help: "Save the first presented picture (the one at --start) as PNG, subtitles included.") var snapshot: String?
    @Flag(help: "Print events as JSON lines on stdout; the last is the end summary.") var json = false
    @Option(help: "Serve a subset of mpv's JSON IPC on this UNIX socket (see docs/ipc.md).") var ipc: String?
    @Option(help: "Audio track: its number among the audio tracks (from 1), auto, or no.") var aid: TrackChoice = .auto
    @Option(help: "Subtitle track: its number among the subtitle tracks (from 1; external files after the file's own), auto, or no.")
    var sid: TrackChoice = .auto
    @Option(help: "Preferred audio languages in order, comma-separated (e.g. jpn,en).") var alang: String?
    @Option(help: "Preferred subtitle languages in order, comma-separated (e.g. en,de).") var slang: String?
    @Option(name: .customLong("sub-file"), help: "A subtitle file to add as a track (repeatable); it is preferred to the file's own.")
    var subFiles: [String] = []
    @Option(name: .customLong("sub-delay"), help: "Seconds to delay subtitles by (negative: earlier).") var subDelay: Double = 0

    func validate() throws {
        guard Player.rateRange.contains(speed) else { throw ValidationError("--speed must be within 0.25…4.0") }
        if let start, start < 0 { throw ValidationError("--start must be ≥ 0") }
        if let start, let end, end <= start { throw ValidationError("--end must be after --start") }
        if framemd5 == "-" && json { throw ValidationError("--framemd5 - and --json both write to stdout: give --framemd5 a path") }
    }

    func run() async throws {
        FFmpegLog.configure()
        let wallStart = MonotonicTimeSource().now()
        // The window first: without a display, say so before anything else is opened.
        let display: WindowedPlayback?
        do {
            display = headless || fast ? nil : try await WindowedPlayback.open(file, sound: wav == nil)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        // Opened once before the player: a one-line error for what cannot be opened, a warning
        // for a server without byte ranges, and the first video stream for --framemd5.
        let firstVideo: Int?
        do {
            firstVideo = try Self.preflight(file)
        } catch {
            printError(error.description)
            await display?.close()
            throw ExitCode.failure
        }
        let output = EventOutput(json: json, started: wallStart)
        var videoSinks: [any VideoSink] = []
        do {
            if let framemd5 { videoSinks.append(try FrameMD5Sink(path: framemd5)) }
        } catch {
            printError("\(framemd5 ?? ""): cannot write framemd5 output")
            await display?.close()
            throw ExitCode.failure
        }
        // At --start: the picture the player opened on (the file's first) is not the one asked for.
        let snapshotSink = snapshot.map { PNGSnapshotSink(path: $0, at: start ?? 0) }
        if let snapshotSink { videoSinks.append(snapshotSink) }
        if let display { videoSinks.append(display.video) }
        let audioSink: any AudioSink
        do {
            audioSink = try wav.map { try WAVAudioSink(path: $0, realTime: !fast) } ?? display?.audio ?? NullAudioSink(realTime: !fast)
        } catch {
            await display?.close()
            printError("\(wav ?? ""): cannot write WAV output")
            throw ExitCode.failure
        }
        let video: any VideoSink = videoSinks.count == 1 ? videoSinks[0] : FanOutVideoSink(videoSinks)

        let player: Player
        do {
            var options = PlayerOptions(videoSink: video, audioSink: audioSink, fast: fast,
                                        videoStreamIndex: framemd5 != nil ? firstVideo : nil, rate: speed)
            options.audioChoice = aid
            options.audioLanguages = Self.languages(alang)
            options.subtitles = subtitleOptions()
            player = try await Player.open(file, options: options)
        } catch {
            printError(error.description)
            await display?.close()
            throw ExitCode.failure
        }
        output.opened(player)
        if case .id(let id) = sid, !player.subtitleTracks.contains(where: { $0.id == id }) {
            printError("warning: no subtitle track \(id) (\(player.subtitleTracks.count) in \(file)): showing none")
        }
        if case .id(let id) = aid, player.audioTrack == nil {
            printError("warning: no audio track \(id) (\(player.audioTracks.count) in \(file)): playing without sound")
        }
        var ipcServer: IPCServer?
        if let ipc {
            let server = IPCServer(socketPath: ipc, target: PlayerIPCTarget(player: player, onQuit: {
                Task { await player.close() }
            }))
            do { try await server.start() } catch {
                printError(error.description)
                await player.close()
                await display?.close()
                throw ExitCode.failure
            }
            ipcServer = server
        }
        let events = player.events(frames: output.wantsFrames)
        let watcher = Task { await output.follow(events, player: player) }
        player.setStopPosition(end)
        if let start { await player.seek(to: start) }
        player.play()
        if let display {
            // Until q, Esc or closing the window, or the end of the file (as mpv).
            await display.run(player)
        } else {
            await player.waitUntilEnded()
        }
        let stats = player.stats
        await ipcServer?.stop()
        await player.close()
        let windowStats = await display?.window.statistics
        await display?.close()
        await watcher.value
        if let windowStats {
            output.window(shownFrames: windowStats.shownPictures, skippedFrames: windowStats.skippedPictures)
        }
        output.finished(stats: stats, mediaSeconds: max(0, stats.endPosition - (start ?? 0)),
                        wallSeconds: MonotonicTimeSource().now() - wallStart)
        if let snapshotSink, let error = snapshotSink.error {
            printError(error)
            throw ExitCode.failure
        }
    }
}

extension PlayCommand {
    /// Subtitles as the options ask: given files, then files named after the video found next to it
    /// (mpv's auto-loading); none when no picture is made (the pictures are where they are drawn).
    func subtitleOptions() -> SubtitleOptions? {
        guard framemd5 == nil || snapshot != nil || !(headless || fast) else { return nil }
        let given = subFiles.map { SubtitleOptions.ExternalFile(path: $0) }
        let givenPaths = Set(subFiles.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let found = SubtitleOptions.ExternalFile.discovered(nextTo: file).filter {
            !givenPaths.contains(URL(fileURLWithPath: $0.path).standardizedFileURL.path)
        }
        return SubtitleOptions(renderer: SubtitleCompositor(), choice: sid, languages: Self.languages(slang),
                               externalFiles: given + found, delay: subDelay)
    }

    /// "en, de" → ["en", "de"].
    static func languages(_ list: String?) -> [String] {
        (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Opens `file` (a path or an http(s)/HLS URL) and closes it again; returns its first video
    /// stream. Throws the one-line open error. An http(s) server without byte ranges is played
    /// from the start anyway, as mpv does (only seeking needs ranges): that is a warning here.
    static func preflight(_ file: String) throws(OpenError) -> Int? {
        let input = try InputFile(url: file)
        do throws(OpenError) {
            try input.requireByteRanges()
        } catch {
            printError("warning: \(error.description): playing from the start, seeking will fail")
        }
        return input.info().streams.first { $0.type == .video }?.index
    }
}

/// The window and sound device of `tandem play` without `--headless`: an SDL window the size of the
/// video (capped to the screen), the SDL sound device (or muted playback when there is none), and
/// mpv's keys through ``PlayerWindowController``.
struct WindowedPlayback: Sendable {
    /// Window size for a file without pictures (the clock and progress bar still show).
    static let audioOnlySize = DisplayGeometry.Size(width: 640, height: 360)

    let window: PlayerWindow
    let video: WindowVideoSink
    let audio: SDLAudioSink?

    /// Opens the window (titled with the file name) and, when `sound`, the sound device.
    static func open(_ file: String, sound: Bool) async throws(WindowError) -> WindowedPlayback {
        let geometry = DisplayGeometry(probing: file)
        let title = URL(fileURLWithPath: file).lastPathComponent
        let window = try await PlayerWindow(title: title, size: geometry?.displaySize ?? audioOnlySize)
        var audio: SDLAudioSink?
        if sound {
            let stream = (try? InputFile(url: file))?.info().streams.first { $0.type == .audio }
            do {
                audio = try SDLAudioSink(preferredRate: stream?.sampleRate ?? 48000, preferredChannels: stream?.channels ?? 2)
            } catch {
                printError("no sound device (\(error)): playing muted")
            }
        }
        return WindowedPlayback(window: window, video: WindowVideoSink(rotation: geometry.map { g in Double(g.quarterTurns * 90) } ?? 0),
                                audio: audio)
    }

    @WindowActor
    func run(_ player: Player) async {
        await window.run(controller: PlayerWindowController(player: player, video: video, audio: audio))
    }

    /// Closes the sound device (if the player did not) and the window.
    func close() async {
        audio?.stop()
        await window.close()
    }
}

/// Presents each picture to several sinks (e.g. framemd5 and a snapshot).
final class FanOutVideoSink: VideoSink {
    private let sinks: [any VideoSink]
    init(_ sinks: [any VideoSink]) { self.sinks = sinks }
    func present(_ frame: VideoFrame, hostTime: Double) { sinks.forEach { $0.present(frame, hostTime: hostTime) } }
    func finish() { sinks.forEach { $0.finish() } }
}

extension TrackChoice: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(trackArgument: argument)
    }
}
