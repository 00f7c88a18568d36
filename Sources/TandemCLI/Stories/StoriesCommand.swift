import TandemApp
import ArgumentParser
import FFmpegKit
import Foundation
import SoundOutput
import PlayerCore
import StoryKit
import TandemWindow

struct StoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stories",
        abstract: "Browse videos as stories: one at a time, at most two players alive, posters while they load.",
        discussion: """
        In the window: < and > swipe to the previous and next story, and mpv's keys act on the current one \
        (space pause, arrows seek, . step, s screenshot, f fullscreen, m mute, 9/0 volume, q quit). \
        Headless (or in the window too), navigation can come from --script, e.g. "next@2,prev@4.5,jump:3@6" \
        (ACTION@SECONDS; actions: next, prev, jump:N, begin, begin<, progress:F, commit, cancel, play, pause, \
        stop, quit). Stories advance when one ends; the command ends after the last, or at quit.
        """
    )

    @Argument(help: "The videos, in order: files, URLs of media, or links to web pages (through yt-dlp; a playlist page gives its videos).")
    var files: [String] = []
    @Option(help: "A JSON list of stories: [{\"url\": …, \"title\": …, \"poster\": …}] (instead of or after FILES).")
    var list: String?
    @Flag(help: "No window and no sound output unless --ao asks for one (otherwise a window with sound).") var headless = false
    @OptionGroup(title: "Sound") var soundOutput: SoundOutputOptions
    @OptionGroup(title: "Pictures") var pictures: PictureOptions
    @Option(help: "Timed navigation, e.g. \"next@2,prev@4.5,jump:3@6\".") var script: String?
    @Flag(help: "Print events as JSON lines on stdout; the last is the end summary.") var json = false
    @Flag(help: "Stay on a story when it ends instead of going to the next.") var noAutoAdvance = false
    @Option(help: "Emit a progress event this often (seconds) while a story plays.") var progressEvery: Double?
    @Option(help: "How a swipe moves the pictures: slide (side by side) or cube (two faces of a turning cube).")
    var transition: StoryTransition = .slide
    @Option(help: "Subtitle track of every story: its number among the subtitle tracks (from 1), auto, or no.")
    var sid: TrackChoice = .auto
    @Option(help: "Preferred subtitle languages in order, comma-separated (e.g. en,de).") var slang: String?
    @Option(name: .customLong("sub-file"), help: "A subtitle file to add as a track of every story (repeatable).")
    var subFiles: [String] = []
    @OptionGroup(title: "Page links") var pageLinks: PageLinkOptions

    func validate() throws {
        if files.isEmpty && list == nil { throw ValidationError("give at least one video (or --list)") }
        if let script { do { _ = try StoryScript(parsing: script) } catch { throw ValidationError(error.description) } }
        if let progressEvery, !(progressEvery > 0) { throw ValidationError("--progress-every must be > 0") }
        for file in subFiles where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("--sub-file \(file): no such readable file")
        }
    }

    func run() async throws {
        FFmpegLog.configure()
        let stories = try await StoryPages.resolved(try loadStories(), resolver: pageLinks.resolver, say: { printError($0) })
        guard !stories.isEmpty else {
            printError("no story could be played")
            throw ExitCode.failure
        }
        // The window first: without a display, say so before anything else is opened.
        let window: StoriesWindow?
        do {
            window = headless ? nil : try await StoriesWindow.open(stories, subtitles: PartySubtitles(
                choice: sid, languages: PlayCommand.languages(slang), files: subFiles), transition: transition,
                sound: soundOutput.sound(headless: false) ?? SoundOptions(outputs: .none), videoSync: pictures.videoSync)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        let headlessSound = headless ? soundOutput.headlessSound() : nil
        defer { headlessSound?.close() }
        let steps = try script.map { try StoryScript(parsing: $0).steps } ?? []
        let output = StoryEventOutput(json: json, started: MonotonicTimeSource().now())

        var options = StoryNavigator.Options()
        options.autoAdvance = !noAutoAdvance
        options.progressInterval = progressEvery
        if let sinks = window?.sinks {
            options.playerOptions = { sinks.playerOptions(for: $0) }
        } else {
            let sound = headlessSound
            options.playerOptions = { _ in PlayerOptions(videoSink: NullVideoSink(), audioSink: sound?.sink() ?? NullAudioSink(realTime: true)) }
        }
        let navigator = StoryNavigator(stories: stories, options: options)
        let session = StorySession(navigator: navigator, output: output)
        let outcome = await session.run(steps: steps, stopWhenCurrentEnds: noAutoAdvance, window: window)
        await window?.close()
        let census = await navigator.census
        let failed = outcome.failedStories
        await navigator.close()
        output.summary(["stories": stories.count, "started": outcome.started, "failed": failed.count,
                        "peakLivePlayers": census.peakPlayers, "leakedThreads": await navigator.leakedThreads])
        if failed.count == stories.count {
            printError("no story could be played")
            throw ExitCode.failure
        }
    }

    private func loadStories() throws -> [Story] {
        var stories = files.map { Story(url: $0) }
        if let list {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: list))
                stories += try JSONDecoder().decode([StoryListEntry].self, from: data).map {
                    Story(url: $0.url, title: $0.title, poster: $0.poster)
                }
            } catch let error as DecodingError {
                printError("\(list): not a story list (\(StoryListEntry.explain(error)))")
                throw ExitCode.failure
            } catch {
                printError("\(list): cannot read (\(error.localizedDescription))")
                throw ExitCode.failure
            }
        }
        guard !stories.isEmpty else {
            printError("\(list ?? "stories"): the list is empty")
            throw ExitCode.failure
        }
        return stories
    }
}

/// One entry of a `--list` file.
struct StoryListEntry: Decodable {
    var url: String
    var title: String?
    var poster: String?

    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context): "entry \(context.codingPath.first?.intValue.map(String.init) ?? "?") has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context): context.debugDescription
        case .dataCorrupted(let context): context.debugDescription
        @unknown default: "\(error)"
        }
    }
}

extension StoryTransition: ExpressibleByArgument {}
