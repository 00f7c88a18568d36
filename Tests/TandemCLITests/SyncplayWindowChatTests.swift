import CSDL2
import Foundation
import Logging
import NIOPosix
import PlayerCore
import Synchronization
import SyncplayKit
import SyncplayClient
import TandemWindow
import Testing
@testable import TandemCLI
@testable import TandemApp
@testable import TandemBench

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
        setenv("SDL_VIDEODRIVER", "offscreen", 1)
        setenv("SDL_AUDIODRIVER", "dummy", 1)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-syncplay-chat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let port = try await Self.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: Self.server)
        server.arguments = ["--port", String(port)]
        server.environment = ProcessInfo.processInfo.environment.merging(["HOME": home.path]) { $1 }
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // Twisted's reactor may ignore SIGTERM; nothing of the server is needed after the test.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        try await Self.eventually("syncplay-server to listen on \(port)") {
            guard let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port).get() else { return false }
            try? await channel.close()
            return true
        }

        // Another client in the room, keeping what it hears.
        let heard = Mutex<[SyncplayNotice]>([])
        let amy = Self.session("amy", port: port) { notice in heard.withLock { $0.append(notice) } }
        let amyRun = Task { await amy.run() }
        try await Self.eventually("amy to join the room") { await amy.status.connected }

        let window = try await PartyWindow.open(title: "Tandem in Syncplay room chat", files: [])
        let tandem = Self.session("tandem", port: port) { window.board.post(PartyWindowNotice($0)) }
        let tandemRun = Task { await tandem.run() }
        let windowLoop = Task { await window.run(tandem) }
        try await Self.eventually("the window's session to join the room") { await tandem.status.connected }

        Self.press(SDLK_RETURN)
        pushTextInput("hello from the window")
        Self.press(SDLK_RETURN)
        try await Self.eventually("amy to hear the window's chat") {
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

    /// A loopback port nobody listens on now.
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// Polls `condition` every 50 ms until it holds; fails after ``bound`` (a failure bound only).
    static func eventually(_ what: String, _ condition: @Sendable () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(bound)
        while !(await condition()) {
            guard Date() < deadline else {
                Issue.record("timed out after \(bound) s waiting for \(what)")
                throw CancellationError()
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }
}
