import PlayerCore
import SyncplayKit
import SyncplayClient
import TandemWindow

/// The party window on a Syncplay room: the room's file with sound, the status line, toasts for
/// joins, leaves, chat, readiness and who paused or seeked; the keys' pause and seek are the
/// user's own, sent to the room.
extension PartyWindow {
    /// Runs the window until the user quits (then leaves the room) or ``stop()``.
    @WindowActor
    package func run(_ session: SyncplaySession) async {
        let view = PartyView()
        let refresher = Task.detached {
            while !Task.isCancelled {
                let s = await session.status
                view.update(status: PartyView.Status(party: s.room, watching: s.users.count + 1, synced: s.connected && s.position != nil,
                                                     connected: s.connected, skewMs: s.skewMs, items: 1),
                            player: await session.currentPlayer, item: 0)
                try? await Task.sleep(for: PartyView.refreshInterval)
            }
        }
        let controls = SyncplayControls(session: session, board: board)
        let controller = PartyWindowController(member: controls, sinks: sinks, view: view, board: board)
        await window.run(controller: controller)
        refresher.cancel()
    }
}

/// The window's requests as the Syncplay user's own: play, pause and seek (a room has no items or
/// rate); its chat line is the room's chat, with the terminal's slash commands.
package struct SyncplayControls: PartyControls {
    package let session: SyncplaySession
    package let board: NoticeBoard

    package func request(_ request: PartyWindowRequest) async {
        switch request {
        case .play: await session.setPaused(false)
        case .pause: await session.setPaused(true)
        case .seek(let position): await session.seek(to: position)
        case .item: board.post(.refused(reason: "a Syncplay room plays one file at a time"))
        case .rate: board.post(.refused(reason: "a Syncplay room plays at normal speed"))
        case .live: board.post(.refused(reason: "a Syncplay room has no live edge to go back to"))
        }
    }

    package func chat(_ text: String) async { await session.typed(text) }

    package func leave() async { await session.leave() }
}

extension PartyWindowNotice {
    /// A Syncplay notice as the window words it.
    package init(_ notice: SyncplayNotice) {
        switch notice {
        case .userJoined(let name): self = .joined(name: name)
        case .userLeft(let name): self = .left(name: name)
        default: self = .message(notice.text)
        }
    }
}
