import CSDL2
import Foundation
import PartyKit
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
            let requests = Mutex<[String]>([])
            let left = Mutex(false)
            func request(_ action: Command.Action, value: Double?) async {
                requests.withLock { $0.append(value.map { "\(action.rawValue):\($0)" } ?? action.rawValue) }
            }
            func leave() async { left.withLock { $0 = true } }
            var all: [String] { requests.withLock { $0 } }
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
            #expect(await eventually { member.all.contains("pause") })
            Self.press(SDLK_PERIOD, modifiers: KMOD_LSHIFT)  // `>`: the next item
            #expect(await eventually { member.all.contains("item:2.0") })
            Self.press(SDLK_RIGHT)
            #expect(await eventually { member.all.contains { $0.hasPrefix("seek:1") } })  // 10 s + 5 s
            #expect(player.state == .playing, "a key does not act on the player itself")

            board.post(.refused("only the host can pause in this party (control: host)"))
            board.post(.participantJoined(ParticipantInfo(id: "a", name: "Alice", role: .participant, joinedAt: 0)))
            board.post(.participantLeft(ParticipantInfo(id: "b", name: "Bob", role: .participant, joinedAt: 0), reason: "connection lost"))
            board.post(.partyEnded("the host left"))
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
