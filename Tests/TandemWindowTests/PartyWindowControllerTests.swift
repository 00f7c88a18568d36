import CSDL2
import FFmpegKit
import Foundation
import PlayerCore
import Synchronization
import SoundOutput
import Testing
import TestSupport
@testable import TandemWindow

extension SDLTests {
    /// In a party the keys are requests to the party, notices become toasts (a refusal says why),
    /// and the status line and story indicator come from the member.
    @WindowActor @Suite struct PartyWindowControllerTests {
        /// Records what the window asks of the party.
        final class RecordingMember: PartyControls {
            let requests = Mutex<[PartyWindowRequest]>([])
            let left = Mutex(false)
            let chats = Mutex<[String]>([])
            func request(_ request: PartyWindowRequest) async { requests.withLock { $0.append(request) } }
            func chat(_ text: String) async { chats.withLock { $0.append(text) } }
            var sentChat: [String] { chats.withLock { $0 } }
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
            let sinks = StorySinks(urls: [], sound: SoundOptions(outputs: .none), warn: { _ in })
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
            board.post(.message("<Carol> hi"))
            let toasts = controller.scene(in: window).toasts.map(\.text)
            #expect(toasts == ["Refused: only the host can pause in this party (control: host)", "Alice joined the party",
                               "Bob left", "<Carol> hi"])

            Self.press(SDLK_q)
            await loop.value
            #expect(controller.quit)
            #expect(await eventually { member.left.withLock { $0 } })
            await player.close()
        }
    }
}

extension SDLTests.PartyWindowControllerTests {
    /// Enter opens the chat line: typed keys go to it (typing "p" does not pause the party), it is
    /// drawn over the bottom of the window, Enter sends it as chat, Esc cancels.
    @Test func enterOpensAChatLineThatTakesTheKeys() async throws {
        SDLTests.useHeadlessDrivers()
        let window = try PlayerWindow(title: "party chat", size: .init(width: 320, height: 240))
        defer { window.close() }
        let sinks = StorySinks(urls: [], sound: SoundOptions(outputs: .none), warn: { _ in })
        let view = PartyView()
        view.update(status: .init(party: "p", watching: 2, synced: true, connected: true, skewMs: nil, items: 1),
                    player: nil, item: 0)
        let member = RecordingMember()
        let controller = PartyWindowController(member: member, sinks: sinks, view: view, board: NoticeBoard())
        let loop = Task { await window.run(controller: controller) }

        var plain = controller.scene(in: window)
        plain.showOverlays = true
        let before = try window.capture(plain)
        Self.press(SDLK_RETURN)
        #expect(await eventually { controller.scene(in: window).chatLine == "" })
        // What SDL sends for typed keys: the key (taken by the chat line) and then its text.
        Self.press(SDLK_p)
        pushTextInput("play ")
        Self.press(SDLK_SPACE)
        pushTextInput("it")
        #expect(await eventually { controller.scene(in: window).chatLine == "play it" })
        #expect(member.all.isEmpty, "keys typed into the chat line are not playback requests")
        // Drawn: the bar over the bottom of the window differs from the window without it.
        let with = try window.capture(controller.scene(in: window))
        let rows = (window.outputSize.height - 20)..<window.outputSize.height
        let drawn = Self.differs(before, with, rows: rows)
        #expect(drawn, "the chat line is on screen")

        Self.press(SDLK_BACKSPACE)
        #expect(await eventually { controller.scene(in: window).chatLine == "play i" })
        Self.press(SDLK_RETURN)
        #expect(await eventually { member.sentChat == ["play i"] })
        #expect(controller.scene(in: window).chatLine == nil)

        Self.press(SDLK_RETURN)
        pushTextInput("oops")
        Self.press(SDLK_ESCAPE)
        #expect(await eventually { controller.scene(in: window).chatLine == nil })
        #expect(!controller.quit, "Esc closed the chat line, not the window")
        #expect(member.sentChat == ["play i"])

        Self.press(SDLK_SPACE)  // closed again: playback keys work
        #expect(await eventually { member.all.contains(.play) })
        Self.press(SDLK_q)
        await loop.value
    }

    /// When the party ends the window stays (its loop runs on), says why in place of the status
    /// line, and asks nothing more of the party; q still closes it.
    @Test func theEndStaysOnScreenUntilTheViewerCloses() async throws {
        SDLTests.useHeadlessDrivers()
        let window = try PlayerWindow(title: "party end", size: .init(width: 320, height: 240))
        defer { window.close() }
        let sinks = StorySinks(urls: [], sound: SoundOptions(outputs: .none), warn: { _ in })
        let view = PartyView()
        view.update(status: .init(party: "p", watching: 2, synced: true, connected: true, skewMs: nil, items: 1),
                    player: nil, item: 0)
        let board = NoticeBoard()
        let member = RecordingMember()
        let controller = PartyWindowController(member: member, sinks: sinks, view: view, board: board)
        let loop = Task { await window.run(controller: controller) }
        board.post(.ended(reason: "the host Hal left the party"))
        #expect(await eventually { controller.endReason == "the host Hal left the party" })
        let scene = controller.scene(in: window)
        #expect(scene.status == "Party ended: the host Hal left the party · q closes the window")
        #expect(scene.toasts.map(\.text) == ["Party ended: the host Hal left the party"])
        view.update(status: .init(party: "p", watching: 0, synced: false, connected: false, skewMs: nil, items: 1),
                    player: nil, item: nil)
        #expect(controller.scene(in: window).status == scene.status, "frozen: the member's later state is not shown")
        Self.press(SDLK_SPACE)
        #expect(await eventually { controller.scene(in: window).toasts.last?.text == "The party has ended" })
        #expect(member.all.isEmpty)
        #expect(!controller.quit)
        Self.press(SDLK_q)
        await loop.value
        #expect(controller.quit)
        #expect(!member.left.withLock { $0 }, "nothing to leave")
    }

    static func differs(_ a: RGBAImage, _ b: RGBAImage, rows: Range<Int>) -> Bool {
        let stride = a.width * 4
        for y in rows where y >= 0 && y < min(a.height, b.height) {
            for x in 0..<(min(a.width, b.width) * 4) where a.pixels[y * stride + x] != b.pixels[y * stride + x] { return true }
        }
        return false
    }
}
