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
                view.update(status: await member.status, player: await member.currentPlayer, item: await member.currentItem)
                try? await Task.sleep(for: PartyView.refreshInterval)
            }
        }
        let controller = PartyWindowController(member: member, sinks: sinks, view: view, board: board)
        await window.run(controller: controller)
        refresher.cancel()
    }

    @WindowActor
    func stop() { window.stop() }

    func close() async { await window.close() }
}

/// Notices from the member's callback (any thread), taken by the window as toasts.
final class NoticeBoard: Sendable {
    private let pending = Mutex<[String]>([])

    func post(_ notice: PartyNotice) {
        let text: String = switch notice {
        case .participantLeft(let p, _): "\(p.name) left"
        case .partyEnded: "Party ended"
        case .refused(let reason): "Refused: \(reason)"
        default: notice.text
        }
        pending.withLock { $0.append(text) }
    }

    func take() -> [String] { pending.withLock { list in defer { list.removeAll() }; return list } }
}

/// What the window shows of the member, refreshed a few times a second (the member is an actor;
/// the window's turn must not wait on it).
final class PartyView: Sendable {
    static let refreshInterval = Duration.milliseconds(100)

    struct Snapshot: Sendable {
        var status: PartyMember.Status?
        var player: Player?
        var item: Int?
    }

    private let state = Mutex(Snapshot())

    func update(status: PartyMember.Status, player: Player?, item: Int?) {
        state.withLock { $0 = Snapshot(status: status, player: player, item: item) }
    }

    var snapshot: Snapshot { state.withLock { $0 } }
}
