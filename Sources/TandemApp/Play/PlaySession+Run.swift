import FFmpegKit
import MediaTime

/// How a run of `tandem play` ended, for the command to turn into its exit.
package enum PlayEnding: Sendable, Equatable {
    /// The playlist was played (to its end, or until the viewer quit): exit status 0.
    case played
    /// Said on standard error: the items could not be listed or opened, the window could not be had,
    /// or an output failed (in a playlist, only when none played): exit status 1.
    case failed
    /// Quit by this signal (SIGINT, SIGTERM) with the position saved and the summary out: the process
    /// dies of it, so that a shell running `tandem play` in a loop stops as well.
    case quitBySignal(Int32)
}

extension PlaySession {
    /// One run of `tandem play` composed from its options: the items listed (page links through
    /// yt-dlp first, so that the window is sized and titled after the first video), the window, the
    /// playlist played, and the end summary (`window` and `end` lines with `--json`).
    package static func run(_ options: PlayOptions) async -> PlayEnding {
        FFmpegLog.configure()
        let wallStart = MonotonicTimeSource().now()
        let resolver = options.resolver
        let items: [PlayItem]
        do { items = try await PlayItem.items(options.files, resolver: resolver) } catch {
            printError(error.description)
            return .failed
        }
        if let failures = PlayItem.failures(items) {
            failures.forEach { printError($0.description) }
            return .failed
        }
        if items.count > 1, options.framemd5 != nil || options.wav != nil || options.snapshot != nil {
            printError("--framemd5, --wav and --snapshot write one file's output: give one file (\(items.count) given)")
            return .failed
        }
        // The window first: without a display, say so before anything else is opened.
        let display: WindowedPlayback?
        do {
            display = options.headless || options.fast ? nil
                : try await WindowedPlayback.open(items[0].opening, title: items[0].title, sound: options.sound,
                                                        videoSync: options.videoSync)
        } catch {
            printError(error.description)
            return .failed
        }
        var session = PlaySession(command: options, items: items, resolver: resolver, display: display,
                                  output: EventOutput(json: options.json, started: wallStart))
        await session.play()
        let windowStats = await display?.window.statistics
        await display?.close()
        if let windowStats {
            session.output.window(shownFrames: windowStats.shownPictures, skippedFrames: windowStats.skippedPictures,
                                  delayedFrames: windowStats.delayedPictures, refreshRate: windowStats.refreshPeriod.map { 1 / $0 })
        }
        session.output.finished(stats: session.totals, mediaSeconds: session.mediaSeconds,
                                wallSeconds: MonotonicTimeSource().now() - wallStart)
        // Quit by a signal: with the position saved and the summary out, the command dies of it.
        if let signal = session.quitSignal { return .quitBySignal(signal) }
        // As before playlists: a file that does not open (or whose outputs fail) is exit status 1;
        // in a playlist, only when none played.
        return session.failed ? .failed : .played
    }
}
