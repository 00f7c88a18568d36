import Foundation
import PartyKit
import PartyNet
import PlayerCore
import StoryKit
import Synchronization
import TandemWindow

/// The window of `tandem host` / `tandem join` without `--headless`: the party's current item with
/// sound, a status line (who is watching, own skew), toasts for joins, leaves, commands, chat and
/// refusals, and the story indicator when the party has several items.
struct PartyWindow: Sendable {
    let window: PlayerWindow
    let sinks: StorySinks
    let board = NoticeBoard()

    /// Opens the window sized for `firstFile` (a participant may not have it yet: a 16:9 default).
    static func open(title: String, files: [String]) async throws(WindowError) -> PartyWindow {
        let size = files.first.flatMap { DisplayGeometry(probing: $0)?.displaySize } ?? DisplayGeometry.Size(width: 960, height: 540)
        let window = try await PlayerWindow(title: title, size: size.scaledUp())
        return PartyWindow(window: window, sinks: StorySinks(urls: files, sound: true, warn: { printError($0) }))
    }

    /// Players of the party's items draw and sound here.
    var playerOptions: @Sendable (Int) -> PlayerOptions {
        let sinks = sinks
        return { sinks.playerOptions(for: $0) }
    }

    /// Runs the window until the user quits (then leaves the party) or ``stop()``.
    @WindowActor
    func run(_ member: PartyMember) async {
        let view = PartyView()
        let refresher = Task.detached {
            while !Task.isCancelled {
                let s = await member.status
                view.update(status: PartyView.Status(party: s.party, watching: s.participants.count, synced: s.synced,
                                                     connected: s.connected, skewMs: s.skewMs, items: s.items),
                            player: await member.currentPlayer, item: await member.currentItem)
                try? await Task.sleep(for: PartyView.refreshInterval)
            }
        }
        let controller = PartyWindowController(member: PartyMemberControls(member: member), sinks: sinks, view: view, board: board)
        await window.run(controller: controller)
        refresher.cancel()
    }

    @WindowActor
    func stop() { window.stop() }

    func close() async {
        sinks.close()
        await window.close()
    }
}

/// The window's requests as the party member's: PartyKit's command actions and values.
struct PartyMemberControls: PartyControls {
    let member: PartyMember

    func request(_ request: PartyWindowRequest) async {
        switch request {
        case .play: await member.request(.play)
        case .pause: await member.request(.pause)
        case .seek(let position): await member.request(.seek, value: position)
        case .item(let index): await member.request(.item, value: Double(index))
        case .rate(let rate): await member.request(.rate, value: rate)
        }
    }

    func leave() async { await member.leave() }
}

extension PartyWindowNotice {
    /// A party notice as the window words it: joins, leaves, the end and refusals have toasts of
    /// their own; anything else reads as the party words it.
    init(_ notice: PartyNotice) {
        switch notice {
        case .participantJoined(let participant): self = .joined(name: participant.name)
        case .participantLeft(let participant, _): self = .left(name: participant.name)
        case .partyEnded: self = .ended
        case .refused(let reason): self = .refused(reason: reason)
        default: self = .message(notice.text)
        }
    }
}

extension NoticeBoard {
    /// Posts a party notice (from the member's callback) as the window's toast.
    func post(_ notice: PartyNotice) { post(PartyWindowNotice(notice)) }
}
