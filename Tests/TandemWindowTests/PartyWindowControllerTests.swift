import CSDL2
import Foundation
import PlayerCore
import Synchronization
import Testing
@testable import TandemWindow

extension SDLTests {
    /// In a party the keys are requests to the party, notices become toasts (a refusal says why),
    /// and the status line and story indicator come from the member.
    @WindowActor @Suite struct PartyWindowControllerTests {
        /// Records what the window asks of the party.
        final class RecordingMember: PartyControls {
            let requests = Mutex<[PartyWindowRequest]>([])
            let left = Mutex(false)
            func request(_ request: PartyWindowRequest) async { requests.withLock { $0.append(request) } }
            func leave() async { left.withLock { $0 = true } }
            var all: [PartyWindowRequest] { requests.withLock { $0 } }
        }

        static func press(_ key: SDL_KeyCode, modifiers: SDL_Keymod = KMOD_NONE) {
            _ = tandem_sdl_push_key(Int32(bitPattern: key.rawValue), UInt16(modifiers.rawValue), 0)
        }

        @Test func keysBecomePartyRequestsAndNoticesBecomeToasts() async throws {
            SDLTests.useHeadlessDrivers()
            let window = try PlayerWindow(title: "party", size: .init(width: 320, height: 240))
            defer { window.close() }
            let sinks = StorySinks(urls: [], sound: false, warn: { _ in })
            let player = try await Player.open(TestMedia.path("party.mp4"), options: sinks.playerOptions(for: 1))
            await player.seek(to: 10)
            player.play()
            let view = PartyView()
            view.update(status: .init(party: "p", watching: 3, synced: true, connected: true, skewMs: 0.42, items: 3),
                        player: player, item: 1)
            let board = NoticeBoard()
            let member = RecordingMember()
            let controller = PartyWindowController(member: member, sinks: sinks, view: view, board: board)
            let loop = Task { await window.run(controller: controller) }

            let scene = controller.scene(in: window)
            #expect(scene.status == "party p · 3 watching · skew +0.42 ms")
            #expect(scene.segments?.index == 1 && scene.segments?.count == 3)
            #expect(scene.primary === sinks.video(for: 1))

            Self.press(SDLK_SPACE)
            #expect(await eventually { member.all.contains(.pause) })
            Self.press(SDLK_PERIOD, modifiers: KMOD_LSHIFT)  // `>`: the next item
            #expect(await eventually { member.all.contains(.item(2)) })
            // Right: a seek 5 s past where the player is when the key is handled (it keeps playing,
            // however slowly a loaded machine gets to the key).
            let before = player.position
            Self.press(SDLK_RIGHT)
            #expect(await eventually {
                let now = player.position
                return member.all.contains { if case .seek(let target) = $0 { target >= before + 5 - 1e-6 && target <= now + 5 + 1e-6 } else { false } }
            })
            #expect(player.state == .playing, "a key does not act on the player itself")

            board.post(.refused(reason: "only the host can pause in this party (control: host)"))
            board.post(.joined(name: "Alice"))
            board.post(.left(name: "Bob"))
            board.post(.ended)
            let toasts = controller.scene(in: window).toasts.map(\.text)
            #expect(toasts == ["Refused: only the host can pause in this party (control: host)", "Alice joined the party",
                               "Bob left", "Party ended"])

            Self.press(SDLK_q)
            await loop.value
            #expect(controller.quit)
            #expect(await eventually { member.left.withLock { $0 } })
            await player.close()
        }
    }
}
