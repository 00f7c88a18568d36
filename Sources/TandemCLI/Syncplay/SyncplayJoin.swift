import ArgumentParser
import FFmpegKit
import Foundation
import Logging
import MPVIPC
import PartyKit
import SyncplayKit
import SyncplayNet
import TandemWindow

/// `tandem join syncplay://HOST[:PORT]/ROOM`: Tandem as a Syncplay client, in the party window or
/// headless; the user's pause and seek come from the window's keys, `--ipc` or `--script`, chat from
/// lines typed on a terminal.
struct SyncplayJoin {
    let link: SyncplayLink
    let name: String
    let options: SyncplayJoinOptions
    let headless: Bool
    let media: [String]
    let script: PartyScript?
    let duration: Double?
    let json: Bool
    let ipc: String?

    func validate() throws {
        if let ca = options.syncplayCA, !FileManager.default.isReadableFile(atPath: ca) {
            throw ValidationError("--syncplay-ca \(ca): no such readable file")
        }
        if let file = options.file, !FileManager.default.fileExists(atPath: file) {
            throw ValidationError("--file \(file): no such file")
        }
        if let script, let step = script.steps.first(where: { ![.play, .pause, .seek].contains($0.action) }) {
            throw ValidationError("a Syncplay room knows play, pause and seek; not \(step.action.rawValue)")
        }
    }

    func run() async throws {
        try validate()
        FFmpegLog.configure()
        // The window first: without a display, say so before anything else is opened.
        let window: PartyWindow?
        do {
            window = headless ? nil : try await PartyWindow.open(title: "Tandem in Syncplay room \(link.room)", files: options.file.map { [$0] } ?? [])
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        var logger = Logger(label: "tandem.syncplay")
        logger.logLevel = .warning
        let output = SyncplayOutput(json: json)
        let session = SyncplaySession(options: .init(
            host: link.host, port: link.port,
            core: .init(name: name, room: link.room, password: options.password, useTLS: !options.noStarttls,
                        nameMode: options.fileName, sizeMode: options.fileSize),
            file: options.file, mediaFolders: media.isEmpty ? [".", "assets"] : media,
            playerOptions: { window?.playerOptions(0) ?? MemberSession.headlessPlayerOptions()(0) },
            tls: options.tlsConfiguration(), logger: logger)) { notice in
            output.notice(notice)
            window?.board.post(PartyWindowNotice(notice))
        }
        let status = await run(session, output: output, window: window)
        if status != 0 { throw ExitCode(status) }
    }

    private func run(_ session: SyncplaySession, output: SyncplayOutput, window: PartyWindow?) async -> Int32 {
        var ipcServer: IPCServer?
        if let ipc {
            let server = IPCServer(socketPath: ipc, target: SyncplayIPCTarget(session: session, onQuit: {
                Task { await session.leave() }
            }))
            do { try await server.start() } catch {
                printError(error.description)
                return 1
            }
            ipcServer = server
        }
        let json = json
        let statusLine = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: json ? 1_000_000_000 : 100_000_000)
                output.show(await session.status)
            }
        }
        let scripted = Task { [script] in
            while !(await session.status.connected) {
                if Task.isCancelled { return }
                try? await Task.sleep(nanoseconds: 20_000_000)
            }
            let start = Date()
            for step in script?.steps ?? [] {
                let wait = step.at - Date().timeIntervalSince(start)
                if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
                if Task.isCancelled { return }
                switch step.action {
                case .play: await session.setPaused(false)
                case .pause: await session.setPaused(true)
                case .seek: await session.seek(to: step.value ?? 0)
                case .rate, .item: break
                }
            }
        }
        // Lines typed on a terminal are chat; "/who" lists who is here, "/ready" and "/unready" say so.
        // Read by TerminalChatInput's own thread, never a cooperative one.
        let chat = TerminalChatInput.start(output: output.terminal) { text in
            Task {
                switch text {
                case "/who": await session.listUsers()
                case "/ready": await session.setReady(true)
                case "/unready": await session.setReady(false)
                default: await session.chat(text)
                }
            }
        }
        let stopper = Task { [duration] in
            await waitForSignalOrTimeout(duration)
            if !Task.isCancelled { await session.leave() }
        }
        // The window runs beside the session; quitting it leaves the room, and the session's end closes it.
        let windowLoop = window.map { window in Task { await window.run(session) } }
        let outcome = await session.run()
        if let window {
            await window.stop()
            await windowLoop?.value
            await window.close()
        }
        stopper.cancel()
        chat?.stop()
        scripted.cancel()
        statusLine.cancel()
        await ipcServer?.stop()
        await session.shutDown()
        output.finish()
        switch outcome {
        case .left:
            return 0
        case .failed(let reason):
            printError(reason)
            return 1
        }
    }
}
