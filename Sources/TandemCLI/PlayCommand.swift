import TandemApp
import ArgumentParser
import Foundation
import PlayerCore
import SubtitleKit
import TandemWindow

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play files: in a window with sound, headless (paced by the clock), or as fast as they decode.",
        discussion: """
            In the window (mpv's keys): space/p pause, ←/→ seek ∓5 s, ↑/↓ seek ±60 s, . frame step, \
            s screenshot (tandem-shot-NNNN.png), f fullscreen (Esc leaves it), m mute, 9/0 volume, [/] speed \
            ÷/×1.1, {/} speed ÷/×2, Backspace speed 1, j/J next/previous subtitle track, v subtitles on/off, \
            z/x subtitle delay ∓0.1 s, </> previous/next file, q quit, Shift+Q quit. The mouse: click or drag \
            on the progress bar seeks, the wheel seeks ±10 s, a double click toggles fullscreen; the bar and \
            pointer hide after a second without input while playing. Subtitles (the file's text and \
            bitmap tracks, --sub-file, and same-named .ass/.ssa/.srt/.vtt files next to the video) are drawn \
            in the window and in --snapshot.
            """
    )

    @Argument(help: "Media files, folders (their media files in natural order), http(s)/HLS URLs of media, or links to web pages (through yt-dlp; a playlist page is a playlist), played in turn.")
    var files: [String]
    @Flag(help: "No window and no sound output (unless --ao asks for one); paced in real time by the media clock.") var headless = false
    @OptionGroup(title: "Sound") var soundOutput: SoundOutputOptions
    @OptionGroup(title: "Pictures") var pictures: PictureOptions
    @Flag(help: "No pacing: decode and present every frame as fast as possible, none dropped (implies --headless).")
    var fast = false
    @Option(parsing: .unconditional, help: "Start each file here, seeking accurately: [[hh:]mm:]ss[.ms] (1:30), -10 (10 s before the end) or 50% of it.")
    var start: PlayTime?
    @Option(parsing: .unconditional, help: "Stop each file here (the forms of --start).") var end: PlayTime?
    @Flag(name: .customLong("loop-file"), help: "Play each file again and again (until q).") var loopFile = false
    @Flag(name: .customLong("loop-playlist"), help: "After the last file, start again from the first.") var loopPlaylist = false
    @Flag(help: "Play the files in a random order.") var shuffle = false
    @Flag(name: .customLong("save-position-on-quit"), help: "On quitting, remember where each file was left (Shift+Q always does).")
    var savePositionOnQuit = false
    @Flag(name: .customLong("no-resume-playback"), help: "Start from the beginning even where a position was remembered.")
    var noResumePlayback = false
    @Option(name: .customLong("watch-later-dir"), help: "Where remembered positions are kept (default: $XDG_STATE_HOME/tandem/watch_later).")
    var watchLaterDir: String?
    @Option(help: "Volume 0–100 in the window (default: the last run's, else 100).") var volume: Int?
    @Option(name: .customLong("screenshot-dir"), help: "Folder for the window's screenshots (s; default: the current folder).")
    var screenshotDir: String?
    @Option(help: "The config file (default: $XDG_CONFIG_HOME/tandem/tandem.conf, else ~/.config/tandem/tandem.conf).")
    var config: String?
    @Flag(name: .customLong("no-config"), help: "Read no config file.") var noConfig = false
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
    @Option(name: .customLong("audio-file"), help: "A sound file (or URL) to play with every item on its clock (repeatable; mpv's): a dub, or a separate sound track. Its sound is played unless --aid chooses another.")
    var audioFiles: [String] = []
    @Option(name: .customLong("sub-delay"), help: "Seconds to delay subtitles by (negative: earlier).") var subDelay: Double = 0
    @OptionGroup(title: "Page links") var pageLinks: PageLinkOptions

    func validate() throws {
        guard Player.rateRange.contains(speed) else { throw ValidationError("--speed must be within 0.25…4.0") }
        guard !files.isEmpty else { throw ValidationError("give a media file, a folder or a URL to play") }
        if case .absolute(let from) = start, case .absolute(let to) = end, to <= from {
            throw ValidationError("--end must be after --start")
        }
        if framemd5 == "-" && json { throw ValidationError("--framemd5 - and --json both write to stdout: give --framemd5 a path") }
        if let volume, !(0...100).contains(volume) { throw ValidationError("--volume must be within 0…100") }
    }

    func run() async throws {
        try await configured().play()
    }

    /// This command with the config file's options before the command line's (so the command line
    /// wins), as mpv reads its mpv.conf. A bad line is an error naming the file and the line.
    func configured() throws -> PlayCommand {
        guard !noConfig else { return self }
        let path = config ?? ConfigFile.defaultPath()
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            guard config == nil else {
                printError("\(path): cannot read this config file")
                throw ExitCode.failure
            }
            return self
        }
        let arguments: [String]
        do { arguments = try ConfigFile.arguments(text, path: path, isOption: Self.optionProblem) } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        guard !arguments.isEmpty else { return self }
        let given = CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "play" ? Array(CommandLine.arguments.dropFirst(2)) : []
        do { return try PlayCommand.parse(arguments + given) } catch {
            printError("\(path): \(PlayCommand.message(for: error))")
            throw ExitCode.failure
        }
    }

    /// Why `--name=value` is not an option of this command (for a config line), or nil when it is.
    static func optionProblem(_ name: String, _ value: String?) -> String? {
        do {
            _ = try PlayCommand.parse(["--\(name)=\(value ?? "")", "file"])
            return nil
        } catch {
            return PlayCommand.message(for: error)
        }
    }

    /// Plays what this command asks for (``PlaySession/run(_:)``) and exits as it ended.
    func play() async throws {
        switch await PlaySession.run(options) {
        case .played: return
        case .failed: throw ExitCode.failure
        case .quitBySignal(let signal): Signals.die(of: signal)
        }
    }
}

extension PlayCommand {
    /// What the play session reads of these options.
    var options: PlayOptions {
        var options = PlayOptions(files: files, resolver: pageLinks.resolver, json: json, headless: headless, fast: fast, start: start, end: end,
                    loopFile: loopFile, loopPlaylist: loopPlaylist, shuffle: shuffle, savePositionOnQuit: savePositionOnQuit, noResumePlayback: noResumePlayback,
                    watchLaterDir: watchLaterDir, volume: volume, screenshotDir: screenshotDir, speed: speed,
                    framemd5: framemd5, wav: wav, snapshot: snapshot, ipc: ipc, aid: aid, sid: sid, alang: alang,
                    slang: slang, subFiles: subFiles, subDelay: subDelay, audioFiles: audioFiles,
                    sound: wav != nil || fast ? nil : soundOutput.sound(headless: headless))
        options.videoSync = pictures.videoSync
        return options
    }

    /// "en, de" → ["en", "de"].
    static func languages(_ list: String?) -> [String] { PlayOptions.languages(list) }
}

extension TrackChoice: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(trackArgument: argument)
    }
}
