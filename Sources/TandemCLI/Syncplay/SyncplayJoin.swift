import TandemApp
import ArgumentParser
import FFmpegKit
import Foundation
import Logging
import MPVIPC
import PartyKit
import SyncplayKit
import SoundOutput
import SyncplayClient
import TandemWindow

/// `tandem join syncplay://HOST[:PORT]/ROOM`: Tandem as a Syncplay client, in the party window or
/// headless; the user's pause and seek come from the window's keys, `--ipc` or `--script`, chat from
/// lines typed on a terminal.
struct SyncplayJoin {
    let link: SyncplayLink
    let name: String
    let options: SyncplayJoinOptions
    let headless: Bool
    let sound: SoundOutputOptions
    var videoSync: VideoSync = .audio
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
        if let script, let step = script.steps.first(where: { $0.action.map { ![.play, .pause, .seek].contains($0) } ?? true }) {
            throw ValidationError("a Syncplay room knows play, pause and seek; not \(step.action?.rawValue ?? "live")")
        }
    }

    func run() async throws {
        try validate()
        FFmpegLog.configure()
        // The window first: without a display, say so before anything else is opened.
        let window: PartyWindow?
        do {
            window = headless ? nil : try await PartyWindow.open(title: "Tandem in Syncplay room \(link.room)", files: options.file.map { [$0] } ?? [],
                                                                 sound: sound.sound(headless: false) ?? SoundOptions(outputs: .none),
                                                                 videoSync: videoSync)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        let headlessSound = headless ? sound.headlessSound() : nil
        defer { headlessSound?.close() }
        var logger = Logger(label: "tandem.syncplay")
        logger.logLevel = .warning
        let output = SyncplayOutput(json: json)
        let session = SyncplaySession(options: .init(
            host: link.host, port: link.port,
            core: .init(name: name, room: link.room, password: options.password, useTLS: !options.noStarttls,
                        nameMode: options.fileName, sizeMode: options.fileSize),
            file: options.file, mediaFolders: media.isEmpty ? [".", "assets"] : media,
            playerOptions: { window?.playerOptions(0) ?? MemberSession.headlessPlayerOptions(sound: headlessSound)(0) },
            tls: options.tlsConfiguration(), logger: logger)) { notice in
            output.notice(notice)
            window?.board.post(PartyWindowNotice(notice))
        }
        let status = await run(session, output: output, window: window)
        if status != 0 { throw ExitCode(status) }
    }

    private func run(_ session: SyncplaySession, output: SyncplayOutput, window: PartyWindow?) async -> Int32 {
        let scaffold = SessionScaffold(
            ipc: ipc.map { ($0, SyncplayIPCTarget(session: session, onQuit: { Task { await session.leave() } })) },
            output: output.terminal,
            showStatus: { output.show(await session.status) },
            isJoined: { await session.status.connected },
            script: script,
            perform: { step in
                switch step.action {
                case .play: await session.setPaused(false)
                case .pause: await session.setPaused(true)
                case .seek: await session.seek(to: step.value ?? 0)
                case .rate, .item, nil: break
                }
            },
            typed: { text in await session.typed(text) },
            duration: duration,
            leave: { await session.leave() },
            window: window,
            runWindow: { window in await window.run(session) })
        guard let outcome = await scaffold.run({ await session.run() }, shutDown: { await session.shutDown() }) else { return 1 }
        switch outcome {
        case .left:
            return 0
        case .failed(let reason):
            printError(reason)
            return 1
        }
    }
}
