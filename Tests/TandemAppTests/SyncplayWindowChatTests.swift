import CSDL2
import Foundation
import Logging
import PlayerCore
import Synchronization
import SyncplayKit
import SyncplayClient
import TandemWindow
import Testing
import TestSupport
@testable import TandemApp

/// The party window on a Syncplay room (`tandem join syncplay://…` without `--headless`): a line
/// typed in its chat line (Enter, text, Enter) is the room's chat, heard by another client in the
/// room on Debian's real syncplay-server. The window runs on SDL's offscreen driver.
@Suite(.serialized) struct SyncplayWindowChatTests {
    /// Generous failure bounds: a loaded 2-core machine starts Python slowly.
    static let bound = 40.0
    static let server = "/usr/bin/syncplay-server"

    @Test func theWindowsChatLineIsTheRoomsChat() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.server) else {
            print("skipping the Syncplay window chat test: \(Self.server) is not installed (scripts/test.sh installs syncplay-server)")
            return
        }
        // SDL is the process's: the window runs while no other test (TandemWindowTests' SDLTests) uses it.
        await AsyncLock.sdl.lock()
        defer { AsyncLock.sdl.unlock() }
        setenv("SDL_VIDEODRIVER", "offscreen", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let home = try TemporaryFolder("syncplay-chat")
        defer { home.remove() }
        let port = try LoopbackPort.free()
        let server = try ChildProcess(Self.server, ["--port", String(port)], adding: ["HOME": home.path],
                                      standardOutput: .discard, standardError: .discard)
        // Twisted's reactor may ignore SIGTERM; nothing of the server is needed after the test.
        defer { server.kill() }
        try await LoopbackPort.waitForListener(port, within: Self.bound)

        // Another client in the room, keeping what it hears.
        let heard = Mutex<[SyncplayNotice]>([])
        let amy = Self.session("amy", port: port) { notice in heard.withLock { $0.append(notice) } }
        let amyRun = Task { await amy.run() }
        try await waitUntil("amy to join the room", within: Self.bound) { await amy.status.connected }

        let window = try await PartyWindow.open(title: "Tandem in Syncplay room chat", files: [])
        let tandem = Self.session("tandem", port: port) { window.board.post(PartyWindowNotice($0)) }
        let tandemRun = Task { await tandem.run() }
        let windowLoop = Task { await window.run(tandem) }
        try await waitUntil("the window's session to join the room", within: Self.bound) { await tandem.status.connected }

        Self.press(SDLK_RETURN)
        pushTextInput("hello from the window")
        Self.press(SDLK_RETURN)
        try await waitUntil("amy to hear the window's chat", within: Self.bound) {
            heard.withLock { $0.contains(.chat(from: "tandem", text: "hello from the window")) }
        }

        // q quits the window, which leaves the room.
        Self.press(SDLK_q)
        await windowLoop.value
        #expect(await tandemRun.value == .left)
        await window.close()
        await tandem.shutDown()
        await amy.leave()
        #expect(await amyRun.value == .left)
        await amy.shutDown()
    }

    static func session(_ name: String, port: Int, notices: @escaping @Sendable (SyncplayNotice) -> Void) -> SyncplaySession {
        var logger = Logger(label: "syncplay.test")
        logger.logLevel = .critical
        return SyncplaySession(options: .init(
            host: "127.0.0.1", port: port, core: .init(name: name, room: "chat", useTLS: false), file: nil, mediaFolders: [],
            playerOptions: { MemberSession.headlessPlayerOptions()(0) }, logger: logger), notices: notices)
    }

    static func press(_ key: SDL_KeyCode) {
        _ = tandem_sdl_push_key(Int32(bitPattern: key.rawValue), UInt16(KMOD_NONE.rawValue), 0)
    }
}
