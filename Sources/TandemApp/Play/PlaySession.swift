import FFmpegKit
import Foundation
import MPVIPC
import PlayerCore
import SoundOutput
import TandemWindow

/// One run of `tandem play`: the items of its playlist played in turn (IO at this edge; the
/// order is ``Playlist``'s), each opened, played in the window or headless, and closed before
/// the next. A file that fails to open is reported on standard error naming it, and skipped.
package struct PlaySession {
    package let command: PlayOptions
    /// The playlist's items; a page's video is kept once resolved.
    package internal(set) var items: [PlayItem]
    /// Resolves page links (nil: `--no-ytdl`, every URL opened as it is).
    package let resolver: PageLinkResolver?
    package let display: WindowedPlayback?
    package let output: EventOutput
    /// Counters summed over the files played.
    package private(set) var totals = PlaybackStats()
    /// Media seconds played, summed over the files.
    package private(set) var mediaSeconds = 0.0
    private var played = 0
    private var failures = 0
    private var outputFailed = false
    /// mpv's `quit` and `playlist-next`/`-prev` over IPC.
    private let requests = SessionRequests()
    /// What the IPC server (if any) answers for: the file playing.
    private let ipcTarget: SessionIPCTarget
    /// The window's volume and mute: the next file keeps them, and the next run (``SavedVolume``).
    private var levels: SavedVolume
    /// What the last run left (nil: nothing saved yet); the levels are saved when they differ.
    private let savedLevels: SavedVolume?
    /// A sound device played in the window: its levels are worth keeping.
    private var heardLevels = false
    private let watchLater: WatchLater

    package init(command: PlayOptions, items: [PlayItem], resolver: PageLinkResolver? = nil, display: WindowedPlayback?,
                 output: EventOutput) {
        self.command = command
        self.items = items
        self.resolver = resolver
        self.display = display
        self.output = output
        ipcTarget = SessionIPCTarget(requests: requests)
        watchLater = WatchLater(directory: command.watchLaterDir ?? WatchLater.defaultDirectory())
        let saved = display == nil ? nil : SavedVolume.load(from: SavedVolume.defaultPath())
        savedLevels = saved
        levels = command.volume.map { SavedVolume(volume: $0, muted: saved?.muted ?? false) } ?? saved ?? SavedVolume(volume: 100, muted: false)
    }

    /// The signal (SIGINT, SIGTERM) that ended the run, if one did.
    package var quitSignal: Int32? { requests.quitSignal }

    /// The run failed: nothing opened (one file that failed, or every file), or an output failed.
    package var failed: Bool { outputFailed || (played == 0 && failures > 0) }

    /// Plays the playlist to its end (or until the viewer quits).
    package mutating func play() async {
        var playlist = Playlist(count: items.count, loopFile: command.loopFile, loopPlaylist: command.loopPlaylist,
                                shuffle: command.shuffle)
        let server = await startIPC()
        guard command.ipc == nil || server != nil else { return }
        // Without a window (which hears SIGINT itself), SIGINT and SIGTERM quit as `q` would,
        // so --save-position-on-quit remembers where the file was (mpv saves on a signal too).
        let interrupts = display == nil ? Signals.subscribe() : nil
        let interruptWatch = interrupts.map { signals in
            Task { [requests] in
                for await signal in signals {
                    Signals.restoreDefaults()  // a second Ctrl-C ends the process, as mpv's does
                    return requests.requestQuit(signal: signal)
                }
            }
        }
        var action = playlist.handle(.start)
        while case .open(let index) = action, !requests.quitRequested {
            action = await playItem(at: index, playlist: &playlist)
        }
        interruptWatch?.cancel()
        await server?.stop()
        if heardLevels, levels != savedLevels { levels.save(to: SavedVolume.defaultPath()) }
    }

    /// Plays item `index`; returns what the playlist says to do next.
    private mutating func playItem(at index: Int, playlist: inout Playlist) async -> Playlist.Action {
        let file = items[index].name
        let target: PlayItem.Target
        let probe: PlayOptions.Probe
        switch await prepare(index) {
        case .ready(let ready, let probed): (target, probe) = (ready, probed)
        case .failed(let message): return skip(message, playlist: &playlist)
        }
        let media = target.url
        let duration = probe.duration ?? target.duration
        guard var from = resolve(command.start, duration: duration, option: "--start", file: file),
              let to = resolve(command.end, duration: duration, option: "--end", file: file) else {
            return skip(nil, playlist: &playlist)
        }
        // Where the viewer left it (mpv's watch-later); the entry is used once, as mpv does.
        if command.start == nil, !command.noResumePlayback, let resume = watchLater.position(for: file) {
            watchLater.forget(file)
            if resume < (to ?? duration ?? .infinity) {
                from = resume
                printError("\(file): resuming at \(EventOutput.timestamp(resume)) (--no-resume-playback starts from the beginning)")
            }
        }
        if let to, to <= (from ?? 0) {
            return skip("\(file): --end \(command.end!) (\(to) s) is not after --start (\(from ?? 0) s)", playlist: &playlist)
        }
        var videoSinks: [any VideoSink] = []
        if let framemd5 = command.framemd5 {
            guard let sink = try? FrameMD5Sink(path: framemd5) else {
                outputFailed = true
                printError("\(framemd5): cannot write framemd5 output")
                return .finish
            }
            videoSinks.append(sink)
        }
        // At --start: the picture the player opened on (the file's first) is not the one asked for.
        let snapshotSink = command.snapshot.map { PNGSnapshotSink(path: $0, at: from ?? 0) }
        if let snapshotSink { videoSinks.append(snapshotSink) }
        let sinks = display?.sinks(for: media, levels: levels)
        if let sinks { videoSinks.append(sinks.video) }
        // Headless with --ao: sound without a window.
        let sound = sinks?.audio ?? (display == nil ? headlessSound(for: media) : nil)
        let audioSink: any AudioSink
        do {
            if let wav = command.wav {
                audioSink = try WAVAudioSink(path: wav, realTime: !command.fast)
            } else {
                audioSink = sound ?? NullAudioSink(realTime: !command.fast)
            }
        } catch {
            sound?.stop()
            outputFailed = true
            printError("\(command.wav ?? ""): cannot write WAV output")
            return .finish
        }
        let video: any VideoSink = videoSinks.count == 1 ? videoSinks[0] : FanOutVideoSink(videoSinks)
        let player: Player
        do {
            var options = PlayerOptions(videoSink: video, audioSink: audioSink, fast: command.fast,
                                        videoStreamIndex: command.framemd5 != nil ? probe.firstVideo : nil, rate: command.speed)
            options.audioChoice = command.aid
            options.audioLanguages = PlayOptions.languages(command.alang)
            options.subtitles = command.subtitleOptions(for: media)
            options.startPosition = from
            // A page's separate sound first: it is the one played unless --aid chooses.
            options.audioFiles = (target.audioURL.map { [$0] } ?? []) + command.audioFiles
            options.inputOptions = target.inputOptions
            player = try await Player.open(media, options: options)
        } catch {
            sound?.stop()
            return skip(target.title == nil ? error.description : "\(file): \(error.reason)", playlist: &playlist)
        }
        played += 1
        _ = playlist.handle(.opened)
        // Ready for IPC before the `open` line says the file is open: a script that answers that line
        // with `playlist-next` must not find the session still refusing to move.
        requests.reset(canStep: (Self.moves(playlist, .next), Self.moves(playlist, .previous)))
        ipcTarget.attach(player)
        output.opened(player, name: file, title: target.title, pageDuration: target.duration)
        warnAboutTracks(player, file: file)
        let events = player.events(frames: output.wantsFrames)
        let watcher = Task { [output] in await output.follow(events, player: player) }
        player.setStopPosition(to)
        player.play()
        var next: Playlist.Action
        var remember = false
        if let display, let sinks {
            (next, remember) = await runWindow(display, player: player, sinks: sinks, playlist: &playlist)
        } else {
            await Self.waitUntilEndedOrQuit(player, requests: requests)
            next = ended(&playlist)
        }
        let stats = player.stats
        // mpv's `quit` over IPC closed the player: the whole playlist ends, not just this file.
        if requests.quitRequested { next = .finish }
        let quit = next == .finish && (remember || requests.quitRequested || player.state != .ended)
        if quit, remember || command.savePositionOnQuit, player.state != .ended {
            do { try watchLater.save(player.position, for: file) } catch { printError(error.description) }
        }
        if let audio = sinks?.audio {
            levels = SavedVolume(volume: audio.volume, muted: audio.muted)
            heardLevels = true
        }
        ipcTarget.attach(nil)
        await player.close()
        sound?.stop()
        await watcher.value
        add(stats, from: from ?? 0)
        if let snapshotSink, let error = snapshotSink.error {
            printError(error)
            outputFailed = true
        }
        return next
    }

    /// The window's turns for one file: `<`/`>` that the playlist refuses (at an end) go on with it.
    /// Returns what to do next, and whether the viewer quit with Shift+Q (remembering the position).
    private func runWindow(_ display: WindowedPlayback, player: Player, sinks: WindowedPlayback.Sinks,
                           playlist: inout Playlist) async -> (Playlist.Action, remember: Bool) {
        let controller = await display.controller(player, sinks: sinks, playlist: items.count > 1,
                                                  screenshotDirectory: command.screenshotDir)
        while true {
            switch await display.run(controller) {
            case .quit(let remembering): return (.finish, remembering)
            case .ended: return (ended(&playlist), false)
            case .step(let step):
                let action = playlist.handle(step > 0 ? .next : .previous)
                if action != .keep { return (action, false) }
            }
        }
    }

    /// Headless: until the file ends or a quit is asked for (a signal; IPC's `quit` also closes
    /// the player). The player stays open, so its position can still be remembered.
    private static func waitUntilEndedOrQuit(_ player: Player, requests: SessionRequests) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await player.waitUntilEnded() }
            group.addTask { await requests.waitForQuit() }
            await group.next()
            group.cancelAll()
        }
    }

    /// The file ended, or a playlist move over IPC closed it.
    /// `play --headless --ao=…`: the file's own sound output, at its rate.
    private func headlessSound(for file: String) -> (any SoundDevice)? {
        guard let sound = command.sound else { return nil }
        let stream = (try? InputFile(url: file))?.info().streams.first { $0.type == .audio }
        return SoundDevices.open(sound, preferredRate: stream?.sampleRate ?? 48000, preferredChannels: stream?.channels ?? 2,
                                 volume: command.volume ?? 100, warn: { printError($0) })
    }

    private func ended(_ playlist: inout Playlist) -> Playlist.Action {
        if let step = requests.takeStep() { return playlist.handle(step > 0 ? .next : .previous) }
        return playlist.handle(.ended)
    }

    /// Whether `event` would move `playlist` to another item (a copy is asked: it is a value).
    private static func moves(_ playlist: Playlist, _ event: Playlist.Event) -> Bool {
        var copy = playlist
        return copy.handle(event) != .keep
    }

    /// Reports a file that cannot be played (when `message`), and moves on.
    private mutating func skip(_ message: String?, playlist: inout Playlist) -> Playlist.Action {
        if let message { printError(message) }
        failures += 1
        return playlist.handle(.failed)
    }

    /// `time` in seconds for a file of `duration`: `.some(nil)` when not given, nil (reported) when
    /// it needs a duration the file does not have.
    private func resolve(_ time: PlayTime?, duration: Double?, option: String, file: String) -> Double??  {
        guard let time else { return .some(nil) }
        guard let seconds = time.seconds(duration: duration) else {
            printError("\(file): \(option) \(time) needs the duration, which is unknown")
            return nil
        }
        return .some(seconds)
    }

    private func warnAboutTracks(_ player: Player, file: String) {
        if case .id(let id) = command.sid, !player.subtitleTracks.contains(where: { $0.id == id }) {
            printError("warning: no subtitle track \(id) (\(player.subtitleTracks.count) in \(file)): showing none")
        }
        if case .id(let id) = command.aid, player.audioTrack == nil {
            printError("warning: no audio track \(id) (\(player.audioTracks.count) in \(file)): playing without sound")
        }
    }

    /// One mpv IPC server for the whole run (as mpv keeps its socket from file to file).
    private mutating func startIPC() async -> IPCServer? {
        guard let ipc = command.ipc else { return nil }
        let server = IPCServer(socketPath: ipc, target: ipcTarget)
        do { try await server.start() } catch {
            printError(error.description)
            outputFailed = true
            return nil
        }
        return server
    }

    private mutating func add(_ stats: PlaybackStats, from start: Double) {
        totals.videoFrames += stats.videoFrames
        totals.audioSamples += stats.audioSamples
        totals.droppedFrames += stats.droppedFrames
        totals.warnings += stats.warnings
        totals.endPosition = stats.endPosition
        mediaSeconds += max(0, stats.endPosition - start)
    }
}
