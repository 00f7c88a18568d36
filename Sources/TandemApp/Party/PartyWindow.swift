import Foundation
import PartyKit
import PartyClient
import PlayerCore
import SoundOutput
import StoryKit
import SubtitleKit
import TandemBase
import TandemWindow

/// The window of `tandem host` / `tandem join` without `--headless`: the party's current item with
/// sound, a status line (who is watching, own skew), toasts for joins, leaves, commands, chat and
/// refusals, and the story indicator when the party has several items. Enter opens a chat line.
/// When the party ends the window stays, saying so, until the viewer closes it.
package struct PartyWindow: Sendable {
    package let window: PlayerWindow
    package let sinks: StorySinks
    package let board = NoticeBoard()
    package let view = PartyView()
    /// True once the window's loop has ended (the viewer closed it, or ``stop()``).
    private let closed = Awaitable(false)

    /// Opens the window sized for `firstFile` (a participant may not have it yet: a 16:9 default).
    /// `subtitles`: this member's own choice of subtitles, drawn onto every item's pictures; `sound`:
    /// the outputs to try and the audio delay.
    package static func open(title: String, files: [String], subtitles: PartySubtitles = PartySubtitles(),
                             sound: SoundOptions = SoundOptions(), videoSync: VideoSync = .audio) async throws(WindowError)
        -> PartyWindow {
        let size = files.first.flatMap { DisplayGeometry(probing: $0)?.displaySize } ?? DisplayGeometry.Size(width: 960, height: 540)
        let window = try await PlayerWindow(title: title, size: size.scaledUp(), videoSync: videoSync)
        let sinks = StorySinks(urls: files, sound: sound, subtitles: { index in
            subtitles.options(for: files.indices.contains(index) ? files[index] : nil)
        }, warn: { printError($0) })
        return PartyWindow(window: window, sinks: sinks)
    }

    /// Players of the party's items draw and sound here.
    package var playerOptions: @Sendable (Int) -> PlayerOptions {
        let sinks = sinks
        return { sinks.playerOptions(for: $0) }
    }

    /// Runs the window until the user quits (then leaves the party) or ``stop()``.
    @WindowActor
    package func run(_ member: PartyMember) async {
        let view = view
        let sound = sinks.sound
        defer { closed.withLock { $0 = true } }
        let refresher = Task.detached {
            while !Task.isCancelled {
                let s = await member.status
                var status = PartyView.Status(party: s.party, watching: s.participants.count, synced: s.synced,
                                              connected: s.connected, skewMs: s.skewMs, items: s.items, output: sound.output?.summary)
                status.behindLive = s.behindLive
                view.update(status: status,
                            player: await member.currentPlayer, item: await member.currentItem)
                try? await Task.sleep(for: PartyView.refreshInterval)
            }
        }
        let controller = PartyWindowController(member: PartyMemberControls(member: member), sinks: sinks, view: view, board: board)
        await window.run(controller: controller)
        refresher.cancel()
    }

    /// Ends the window's loop, but after the party's end only once the viewer closed the window
    /// (or on SIGINT/SIGTERM): its last picture stays, paused, with the reason the party ended.
    package func stop() async {
        if board.partyEnded {
            view.snapshot.player?.pause()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await closed.wait(until: { $0 }) }
                group.addTask { await Signals.wait() }
                await group.next()
                group.cancelAll()
            }
        }
        await window.stop()
    }

    package func close() async {
        sinks.close()
        await window.close()
    }
}

/// `--sid`, `--slang` and `--sub-file` of `host` and `join`: each member's own subtitles, as
/// `tandem play` shows them (given files first, then same-named files next to a local item).
package struct PartySubtitles: Sendable {
    package init(choice: TrackChoice = .auto, languages: [String] = [], files: [String] = []) {
        self.choice = choice
        self.languages = languages
        self.files = files
    }

    package var choice: TrackChoice = .auto
    package var languages: [String] = []
    package var files: [String] = []

    /// The subtitles of the player of `media` (nil when this member does not know the item's path).
    package func options(for media: String?) -> SubtitleOptions? {
        let given = files.map { SubtitleOptions.ExternalFile(path: $0) }
        let givenPaths = Set(files.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let found = (media.map(SubtitleOptions.ExternalFile.discovered(nextTo:)) ?? []).filter {
            !givenPaths.contains(URL(fileURLWithPath: $0.path).standardizedFileURL.path)
        }
        return SubtitleOptions(renderer: SubtitleCompositor(), choice: choice, languages: languages, externalFiles: given + found)
    }
}

/// The window's requests as the party member's: PartyKit's command actions and values.
package struct PartyMemberControls: PartyControls {
    package let member: PartyMember

    package func request(_ request: PartyWindowRequest) async {
        switch request {
        case .play: await member.request(.play)
        case .pause: await member.request(.pause)
        case .seek(let position): await member.request(.seek, value: position)
        case .item(let index): await member.request(.item, value: Double(index))
        case .rate(let rate): await member.request(.rate, value: rate)
        case .live: await member.goLive()
        }
    }

    /// Typed in the window or on the terminal: "/who" lists who is here, "/live" brings the party to
    /// a live stream's hold behind the edge; anything else is chat.
    package func chat(_ text: String) async {
        switch text {
        case "/who": await member.listParticipants()
        case "/live": await member.goLive()
        default: await member.chat(text)
        }
    }

    package func leave() async { await member.leave() }
}

extension PartyWindowNotice {
    /// A party notice as the window words it: joins, leaves, the end and refusals have toasts of
    /// their own; anything else reads as the party words it.
    package init(_ notice: PartyNotice) {
        switch notice {
        case .participantJoined(let participant): self = .joined(name: participant.name)
        case .participantLeft(let participant, _): self = .left(name: participant.name)
        case .partyEnded(let reason): self = .ended(reason: reason)
        case .refused(let reason): self = .refused(reason: reason)
        default: self = .message(notice.text)
        }
    }
}

extension NoticeBoard {
    /// Posts a party notice (from the member's callback) as the window's toast.
    package func post(_ notice: PartyNotice) { post(PartyWindowNotice(notice)) }
}
